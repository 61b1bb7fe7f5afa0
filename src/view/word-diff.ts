/**
 * A word-level diff of two texts for the inspector's compare view. It imports nothing, so the web
 * app uses it as it is.
 *
 * Tokens are runs of non-space characters and runs of whitespace, so joining the parts of either
 * side gives its text back exactly. The common prefix and suffix are trimmed first; the middle is
 * diffed by LCS only while its table stays under `maxCells` (rows × columns), since the table is
 * quadratic. A longer middle is shown as one removal and one insertion, and `bounded` says so.
 */

/** One run of tokens: in both texts, only in the first (`del`), or only in the second (`ins`). */
export interface DiffPart {
  readonly op: 'same' | 'del' | 'ins';
  readonly text: string;
}

export interface WordDiff {
  readonly parts: readonly DiffPart[];
  /** True when the changed middle was too long to align word by word. */
  readonly bounded: boolean;
}

/** 4M cells: a few tens of ms, and about 16 MB of table, in a browser. */
export const WORD_DIFF_MAX_CELLS = 4_000_000;

export function tokenizeWords(text: string): string[] {
  return text.match(/\s+|\S+/g) ?? [];
}

export function wordDiff(a: string, b: string, maxCells = WORD_DIFF_MAX_CELLS): WordDiff {
  const x = tokenizeWords(a);
  const y = tokenizeWords(b);
  let start = 0;
  while (start < x.length && start < y.length && x[start] === y[start]) start++;
  let endX = x.length;
  let endY = y.length;
  while (endX > start && endY > start && x[endX - 1] === y[endY - 1]) {
    endX--;
    endY--;
  }
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], text: string) => {
    if (text === '') return;
    const last = parts[parts.length - 1];
    if (last && last.op === op) parts[parts.length - 1] = { op, text: last.text + text };
    else parts.push({ op, text });
  };
  push('same', x.slice(0, start).join(''));
  const midX = x.slice(start, endX);
  const midY = y.slice(start, endY);
  const bounded = midX.length * midY.length > maxCells;
  if (bounded) {
    push('del', midX.join(''));
    push('ins', midY.join(''));
  } else {
    for (const part of lcsParts(midX, midY)) push(part.op, part.text);
  }
  push('same', x.slice(endX).join(''));
  return { parts, bounded };
}

/** The classic LCS table read back from the start; removals are listed before insertions. */
function lcsParts(x: readonly string[], y: readonly string[]): DiffPart[] {
  const n = x.length;
  const m = y.length;
  const width = m + 1;
  // lengths[i * width + j]: the LCS length of x[i..] and y[j..].
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i * width + j] =
        x[i] === y[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      parts.push({ op: 'same', text: x[i] as string });
      i++;
      j++;
    } else if ((lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0)) {
      parts.push({ op: 'del', text: x[i++] as string });
    } else {
      parts.push({ op: 'ins', text: y[j++] as string });
    }
  }
  for (; i < n; i++) parts.push({ op: 'del', text: x[i] as string });
  for (; j < m; j++) parts.push({ op: 'ins', text: y[j] as string });
  return parts;
}
