/** A half-open range of text offsets, [start, end). */
export type TextRange = readonly [start: number, end: number];

/**
 * The parts of an answer that quote text rather than plan anything: fenced code blocks, inline
 * code spans, HTML comments and markdown blockquote lines. An answer that explains the placeholder syntax, shows
 * code, or quotes the user's own words (which may carry placeholder-looking text) must not have
 * those quotes counted as planned calls.
 */
export function quotedRanges(text: string): TextRange[] {
  const ranges: TextRange[] = [];
  const outside: TextRange[] = [];
  let offset = 0;
  let fence: { char: string; length: number; start: number } | undefined;
  let plainStart = 0;
  for (const line of text.split('\n')) {
    const end = offset + line.length;
    const opener = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      const closer = /^ {0,3}(`{3,}|~{3,})\s*$/.exec(line);
      if (closer?.[1]?.[0] === fence.char && (closer[1]?.length ?? 0) >= fence.length) {
        ranges.push([fence.start, end]);
        fence = undefined;
        plainStart = end + 1;
      }
    } else if (opener?.[1]) {
      outside.push([plainStart, offset]);
      fence = { char: opener[1][0] as string, length: opener[1].length, start: offset };
    } else if (/^ {0,3}>/.test(line)) {
      ranges.push([offset, end]);
    }
    offset = end + 1;
  }
  // An unclosed fence quotes everything after it, as markdown renders it.
  if (fence) ranges.push([fence.start, text.length]);
  else outside.push([plainStart, text.length]);
  for (const [from, to] of outside) {
    const chunk = text.slice(from, to);
    for (const m of chunk.matchAll(/<!--[\s\S]*?(?:-->|$)/g)) {
      ranges.push([from + m.index, from + m.index + m[0].length]);
    }
    for (const m of chunk.matchAll(/(`+)(?!`)[\s\S]*?[^`]\1(?!`)/g)) {
      ranges.push([from + m.index, from + m.index + m[0].length]);
    }
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

/** Whether `position` falls inside one of `ranges`. */
export function inRanges(ranges: readonly TextRange[], position: number): boolean {
  return ranges.some(([start, end]) => position >= start && position < end);
}
