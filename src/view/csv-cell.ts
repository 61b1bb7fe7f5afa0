/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, quote or line break. Text starting with
 * = + - @ (or a tab or carriage return) gets a leading apostrophe, so a spreadsheet shows it rather
 * than running it as a formula; numbers are written as they are.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
