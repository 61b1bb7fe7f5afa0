import { escapeHtml } from './escape-html.js';
import { formatNumber } from './format-number.js';

/**
 * One cell: text (escaped), a number (right-aligned, 4 decimals at most), null or undefined (—),
 * or text with a class (`text` keeps line breaks; `n` aligns right).
 */
export type TableCell =
  | string
  | number
  | null
  | undefined
  | { readonly text: string; readonly className: string };

function cellHtml(cell: TableCell, tag: 'td' | 'th', extraClass?: string): string {
  const [text, className] =
    cell === null || cell === undefined
      ? ['—', undefined]
      : typeof cell === 'number'
        ? [formatNumber(cell), 'n']
        : typeof cell === 'string'
          ? [cell, undefined]
          : [cell.text, cell.className];
  const classes = [className, extraClass].filter(Boolean).join(' ');
  return `<${tag}${classes ? ` class="${classes}"` : ''}>${escapeHtml(text)}</${tag}>`;
}

/**
 * A table of escaped cells, with a header row unless `columns` is empty. `columnClasses` gives a class per column (e.g. `ours` marks where our
 * figures start beside a benchmark's own).
 */
export function htmlTable(
  columns: readonly string[],
  rows: readonly (readonly TableCell[])[],
  options: { readonly columnClasses?: readonly (string | undefined)[]; readonly id?: string } = {},
): string {
  const cls = (i: number) => options.columnClasses?.[i];
  const head =
    columns.length > 0 ? [`<tr>${columns.map((c, i) => cellHtml(c, 'th', cls(i))).join('')}</tr>`] : [];
  const body = rows.map((row) => `<tr>${row.map((c, i) => cellHtml(c, 'td', cls(i))).join('')}</tr>`);
  return `<table${options.id ? ` id="${escapeHtml(options.id)}"` : ''}>\n${[...head, ...body].join('\n')}\n</table>`;
}
