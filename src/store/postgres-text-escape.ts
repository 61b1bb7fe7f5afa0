// PostgreSQL text and JSONB cannot hold U+0000, which model output and sample text may contain.
// The PostgreSQL store writes it as U+E000 "0" and a literal U+E000 (a private-use character) as
// U+E000 "e", so every string round-trips exactly; strings without either are stored unchanged.
const ESCAPE = '\uE000';

/** A string as the PostgreSQL store writes it. */
export function escapeText(text: string): string {
  if (!text.includes('\0') && !text.includes(ESCAPE)) return text;
  return text.replaceAll(ESCAPE, `${ESCAPE}e`).replaceAll('\0', `${ESCAPE}0`);
}

/** A string as the PostgreSQL store read it, back to the original. */
export function unescapeText(text: string): string {
  if (!text.includes(ESCAPE)) return text;
  return text.replace(/\uE000([0e])/g, (_, code: string) => (code === '0' ? '\0' : ESCAPE));
}

/**
 * JSON text for a JSONB parameter, with the `\u0000` escapes turned into raw U+0000 so that
 * `escapeText` (applied to every parameter) encodes them like any other string's.
 */
export function jsonParam(value: unknown): string {
  return JSON.stringify(value).replace(/\\(\\|u0000)/g, (sequence, what: string) =>
    what === '\\' ? sequence : '\0',
  );
}

/** Parses JSON text read back (and unescaped) from a JSONB column. */
export function parseJsonColumn(text: string): unknown {
  // A raw U+0000 can only stand inside a string here, where JSON wants it escaped.
  return JSON.parse(text.includes('\0') ? text.replaceAll('\0', '\\u0000') : text);
}
