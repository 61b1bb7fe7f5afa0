import { describe, expect, test } from 'vitest';
import { renderMarkdown, safeHref } from '../web/src/markdown/render-markdown.js';

/** Every element name in a piece of HTML. */
const tags = (html: string) =>
  [...html.matchAll(/<([a-zA-Z][\w-]*)/g)].map((m) => (m[1] as string).toLowerCase());

describe('renderMarkdown', () => {
  test.each([
    ['a script block', '<script>window.__pwned = 1</script>'],
    ['an inline script', 'Rain <script>window.__pwned = 1</script> falls.'],
    ['an image with onerror', 'see <img src=x onerror="window.__pwned = 1">'],
    ['an iframe block', '<iframe src="https://example.com"></iframe>\n\ntext'],
    ['a svg with onload', '<svg onload="window.__pwned = 1"></svg>'],
    ['a script in a list item', '- <script>window.__pwned = 1</script>'],
  ])('should show %s as its characters', (_, text) => {
    const html = renderMarkdown(text);
    expect(tags(html).filter((t) => !['p', 'pre', 'ul', 'li', 'br'].includes(t))).toEqual([]);
    expect(html).toContain('&lt;');
  });

  test.each([
    ['javascript:alert(1)'],
    ['JAVASCRIPT:alert(1)'],
    ['data:text/html,<script>alert(1)</script>'],
    ['vbscript:msgbox'],
    ['#/runs/x'],
  ])('should drop the link to %s and keep its text', (href) => {
    const html = renderMarkdown(`[click me](${href})`);
    expect(html).not.toContain('<a');
    expect(html).toContain('click me');
  });

  test('should keep a web link, marked as leaving', () => {
    expect(renderMarkdown('[docs](https://example.com/a?b=1&c=2)')).toBe(
      '<p><a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">docs</a></p>',
    );
    expect(safeHref('mailto:a@b.c')).toBe('mailto:a@b.c');
  });

  test('should show an image as a link to it, never load it', () => {
    const html = renderMarkdown(
      '![a <b>cat</b>](https://example.com/cat.png) ![x](data:image/png;base64,AAAA)',
    );
    expect(tags(html)).not.toContain('img');
    expect(html).toContain('<a href="https://example.com/cat.png"');
    expect(html).not.toContain('data:');
  });

  test('should render inline, display and boxed math as MathML', () => {
    const html = renderMarkdown('Area $x^2$, also \\(y\\), and \\boxed{42}.\n\n$$\\frac{1}{2}$$\n\n\\[z\\]');
    expect(tags(html).filter((t) => t === 'math')).toHaveLength(5);
    expect(html.match(/display="block"/g)).toHaveLength(2);
    expect(html).toContain('<mn>42</mn>');
    expect(html).not.toContain('$');
    // Inline formulas stay in their paragraph; display ones are blocks of their own.
    expect(html).not.toMatch(/<p><div/);
  });

  test('should leave dollar amounts and escaped dollars as text', () => {
    expect(renderMarkdown('It costs $5 and $10.')).toBe('<p>It costs $5 and $10.</p>');
    expect(renderMarkdown('\\$x$ stays')).not.toContain('<math');
    expect(renderMarkdown('`$x$` in code')).toBe('<p><code>$x$</code> in code</p>');
  });

  test('should refuse what KaTeX is not trusted with and show bad TeX as an error, not throw', () => {
    expect(renderMarkdown('$\\href{javascript:alert(1)}{x}$')).not.toMatch(/href=|<a[\s>]/);
    expect(renderMarkdown('$\\frac{1}{$ and $\\undefinedmacro$')).toContain('katex-error');
  });

  test('should highlight the registered languages and escape the rest', () => {
    const html = renderMarkdown('```python\ndef f(x):\n    return "<b>"\n```');
    expect(html).toContain('<span class="hljs-keyword">def</span>');
    expect(html).toContain('&quot;&lt;b&gt;&quot;');
    expect(renderMarkdown('```brainfuck\n<script>\n```')).toBe(
      '<pre class="code" data-language="brainfuck"><code class="hljs">&lt;script&gt;</code></pre>',
    );
  });

  test('should show a task list box as a character, not a form control', () => {
    expect(tags(renderMarkdown('- [x] done\n- [ ] open'))).not.toContain('input');
  });
});
