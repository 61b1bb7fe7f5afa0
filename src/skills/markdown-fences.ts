/**
 * For each line of a markdown text, whether it is inside a fenced code block (the fence lines
 * included). A fence opens with three or more backticks or tildes and closes with a line of the
 * same character at least as long, as CommonMark says; `#` lines and links inside are code, not
 * headers or links.
 */
export function fencedLines(lines: readonly string[]): boolean[] {
  const fenced: boolean[] = [];
  let open: { char: string; length: number } | undefined;
  for (const line of lines) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open === undefined) {
      // A backtick fence's info string may not contain backticks (CommonMark 4.5).
      if (fence?.[1] !== undefined && !(fence[1][0] === '`' && fence[2]?.includes('`'))) {
        open = { char: fence[1][0] as string, length: fence[1].length };
        fenced.push(true);
        continue;
      }
      fenced.push(false);
      continue;
    }
    fenced.push(true);
    const marker = fence?.[1];
    if (marker?.[0] === open.char && marker.length >= open.length && fence?.[2]?.trim() === '')
      open = undefined;
  }
  return fenced;
}
