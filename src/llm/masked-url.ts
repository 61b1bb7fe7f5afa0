/**
 * A URL fit to print: its password (`https://user:secret@host`) replaced by `***`. A string that
 * is not a URL is returned as it is.
 */
export function maskedUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  if (parsed.password === '') return url;
  parsed.password = '***';
  return parsed.toString();
}
