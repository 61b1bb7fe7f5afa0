/** `%`, `_` and the escape itself taken literally in a LIKE pattern (with `ESCAPE '\'`). */
export function likeSubstring(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
