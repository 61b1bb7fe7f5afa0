import { type ReactNode, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { HighlightedText } from './highlighted-text';

/** How a block of model text is shown: rendered (Markdown, LaTeX, code) or as the characters sent. */
export type TextMode = 'rendered' | 'raw';

type Render = (text: string) => string;

// Marked, KaTeX and highlight.js load with the first text shown, not with the runs list.
let loading: Promise<void> | undefined;
// Set once the import has settled: the renderer, or null when it could not load (text stays raw).
let loaded: Render | null | undefined;
const loadRenderer = () => {
  loading ??= import('./markdown/render-markdown').then(
    (m) => {
      loaded = m.renderMarkdown;
    },
    () => {
      loaded = null;
    },
  );
  return loading;
};

/**
 * The renderer once its chunk has settled (null if it failed), undefined before. A page waits for
 * it before drawing its texts, so they do not change size, and move what is below, as it arrives.
 */
export function useRenderer(): Render | null | undefined {
  const [render, setRender] = useState(() => loaded);
  useEffect(() => {
    if (render !== undefined) return;
    let live = true;
    loadRenderer().then(() => live && setRender(() => loaded));
    return () => {
      live = false;
    };
  }, [render]);
  return render;
}

/**
 * Marks the last run of plain text equal to `mark` (the extracted answer), as the raw view does:
 * inside a formula or a code block there is no single text node to mark, and nothing is marked.
 */
function markLast(root: HTMLElement, mark: string): void {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let found: Text | undefined;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest('math, pre')) continue;
    if (node.nodeValue?.includes(mark)) found = node as Text;
  }
  if (!found || found.nodeValue === null) return;
  const at = found.nodeValue.lastIndexOf(mark);
  const marked = found.splitText(at);
  marked.splitText(mark.length);
  const element = document.createElement('mark');
  element.title = 'extracted answer';
  marked.replaceWith(element);
  element.append(marked);
}

/**
 * A prompt, response or reference as `mode` says. The rendered HTML comes from `renderMarkdown`,
 * which escapes every piece of the text it does not make into markup itself; until the renderer
 * has loaded, and in raw mode, the text is a text node.
 */
export function RichText({ text, mode, mark }: { text: string; mode: TextMode; mark?: string }) {
  const render = useRenderer();
  const html = useMemo(
    () => (render && mode === 'rendered' ? render(text) : undefined),
    [render, mode, text],
  );
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (ref.current && html !== undefined && mark) markLast(ref.current, mark);
  }, [html, mark]);
  if (html === undefined) return <HighlightedText text={text} mark={mark} />;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: renderMarkdown escapes all of the untrusted text
  return <div ref={ref} className="rendered" data-rendered dangerouslySetInnerHTML={{ __html: html }} />;
}

/** A block's heading with its switch between rendered and raw text. */
export function BlockHead({
  title,
  mode,
  onChange,
  what,
}: {
  title: ReactNode;
  mode: TextMode;
  onChange: (mode: TextMode) => void;
  what: string;
}) {
  return (
    <div className="block-head">
      <h2>{title}</h2>
      <ModeToggle mode={mode} onChange={onChange} what={what} />
    </div>
  );
}

/** The one-click switch of a block between rendered and raw text; each block keeps its own. */
export function ModeToggle({
  mode,
  onChange,
  what,
}: {
  mode: TextMode;
  onChange: (mode: TextMode) => void;
  what: string;
}) {
  return (
    <button
      type="button"
      className="mode-toggle"
      data-mode-toggle={what}
      aria-pressed={mode === 'raw'}
      onClick={() => onChange(mode === 'raw' ? 'rendered' : 'raw')}
    >
      raw {what}
    </button>
  );
}
