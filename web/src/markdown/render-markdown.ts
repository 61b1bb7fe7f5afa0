import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import go from 'highlight.js/lib/languages/go';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import python from 'highlight.js/lib/languages/python';
import rust from 'highlight.js/lib/languages/rust';
import typescript from 'highlight.js/lib/languages/typescript';
import { Marked } from 'marked';
import { escapeHtml } from '../../../src/view/escape-html.js';
import { mathExtensions } from './math-extension';

// The languages model output is mostly written in; others show as plain (escaped) code.
for (const [name, language] of Object.entries({
  bash,
  c,
  cpp,
  go,
  java,
  javascript,
  json,
  python,
  rust,
  typescript,
}))
  hljs.registerLanguage(name, language);

/**
 * Only links that leave for the web or a mail client: `javascript:`, `data:`, `vbscript:` and
 * relative links (which would act inside the inspector) are dropped, their text kept.
 */
export function safeHref(href: string): string | undefined {
  return /^(?:https?:\/\/|mailto:)/i.test(href) ? href : undefined;
}

const marked = new Marked({
  gfm: true,
  // Model output means a line break where it writes one.
  breaks: true,
  extensions: mathExtensions,
  renderer: {
    // Raw HTML in the text is shown as its characters: model output never becomes markup.
    html({ text, block }: { text: string; block?: boolean }) {
      return block ? `<pre class="source">${escapeHtml(text)}</pre>` : escapeHtml(text);
    },
    link({ href, title, tokens }) {
      const text = this.parser.parseInline(tokens);
      const safe = safeHref(href);
      if (safe === undefined) return text;
      const titled = title ? ` title="${escapeHtml(title)}"` : '';
      return `<a href="${escapeHtml(safe)}"${titled} rel="noopener noreferrer nofollow">${text}</a>`;
    },
    // The inspector loads nothing from elsewhere (its CSP forbids it): an image is a link to it.
    image({ href, text }) {
      const label = `[image: ${escapeHtml(text)}]`;
      const safe = safeHref(href);
      return safe === undefined
        ? label
        : `<a href="${escapeHtml(safe)}" rel="noopener noreferrer nofollow">${label}</a>`;
    },
    // A task list's box as a character, not a form control with no label.
    checkbox({ checked }) {
      return checked ? '☑ ' : '☐ ';
    },
    code({ text, lang }) {
      const language = /^[\w+#-]*/.exec(lang ?? '')?.[0] ?? '';
      const known = language !== '' && hljs.getLanguage(language) !== undefined;
      const body = known ? hljs.highlight(text, { language, ignoreIllegals: true }).value : escapeHtml(text);
      const tag = language === '' ? '' : ` data-language="${escapeHtml(language)}"`;
      return `<pre class="code"${tag}><code class="hljs">${body}</code></pre>`;
    },
  },
});

/**
 * Untrusted text (a prompt, a response, a reference) as HTML: Markdown (GFM), LaTeX as MathML and
 * highlighted code. Everything that reaches the page is escaped text or markup made here.
 */
export function renderMarkdown(text: string): string {
  return (marked.parse(text, { async: false }) as string).trim();
}
