import katex from 'katex';
import type { TokenizerAndRendererExtension, Tokens } from 'marked';

interface MathToken extends Tokens.Generic {
  type: 'math' | 'inlineMath';
  raw: string;
  tex: string;
  display: boolean;
}

/**
 * KaTeX as MathML only: the browser draws it with no fonts or stylesheet to load. `trust: false`
 * refuses \href, \url and \htmlId in model output; the limits keep a hostile macro from eating the tab.
 */
export function renderTex(tex: string, display: boolean): string {
  return katex.renderToString(tex, {
    output: 'mathml',
    displayMode: display,
    throwOnError: false,
    trust: false,
    strict: 'ignore',
    maxExpand: 500,
    maxSize: 50,
  });
}

/** `\boxed{…}` outside any delimiters (how math models end an answer), braces balanced, or nothing. */
function boxedAt(src: string): string | undefined {
  if (!src.startsWith('\\boxed{')) return undefined;
  let depth = 0;
  for (let i = '\\boxed'.length; i < src.length; i++) {
    const c = src[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return src.slice(0, i + 1);
  }
  return undefined;
}

// The token's type names the extension whose renderer draws it.
const token = (type: MathToken['type'], raw: string, tex: string, display: boolean): MathToken => ({
  type,
  raw,
  tex,
  display,
});

/** A display formula standing as its own block: `$$ … $$` or `\[ … \]`. */
const blockMath: TokenizerAndRendererExtension = {
  name: 'math',
  level: 'block',
  start: (src) => src.search(/^ {0,3}(?:\$\$|\\\[)/m),
  tokenizer(src) {
    const m = /^ {0,3}(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])[^\S\n]*(?:\n|$)/.exec(src);
    if (m) return token('math', m[0], (m[1] ?? m[2]) as string, true);
    return undefined;
  },
  renderer: (t) =>
    `<div class="math-display">${renderTex((t as MathToken).tex, (t as MathToken).display)}</div>`,
};

/**
 * Formulas within a line: `$$…$$` and `\[…\]` displayed, `\(…\)` and `$…$` inline, and a bare
 * `\boxed{…}`. A `$` opens only before a non-space and closes only after one and before a
 * non-digit (pandoc's rule), so "costs $5 and $10" stays text; `\$` stays an escaped dollar.
 */
const inlineMath: TokenizerAndRendererExtension = {
  name: 'inlineMath',
  level: 'inline',
  start: (src) => src.search(/(?<!\\)\$|\\[([]|\\boxed\{/),
  tokenizer(src) {
    const display = /^(?:\$\$([\s\S]+?)\$\$|\\\[([\s\S]+?)\\\])/.exec(src);
    if (display) return token('inlineMath', display[0], (display[1] ?? display[2]) as string, true);
    const inline = /^(?:\\\(([\s\S]+?)\\\)|\$(?![\s$])((?:\\[\s\S]|[^\\$])+?)(?<!\s)\$(?!\d))/.exec(src);
    if (inline) return token('inlineMath', inline[0], (inline[1] ?? inline[2]) as string, false);
    const boxed = boxedAt(src);
    if (boxed) return token('inlineMath', boxed, boxed, false);
    return undefined;
  },
  renderer: (t) => renderTex((t as MathToken).tex, (t as MathToken).display),
};

export const mathExtensions = [blockMath, inlineMath];
