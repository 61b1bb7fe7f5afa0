/** A number as a report prints it: at most 4 decimals, trailing zeros dropped; — for unknown. */
export function formatNumber(value: number | null | undefined): string {
  if (value === null || value === undefined) return '—';
  if (!Number.isFinite(value)) return String(value);
  return String(Number(value.toFixed(4)));
}
