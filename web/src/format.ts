export const num = (value: number | null | undefined, digits = 3) =>
  value === null || value === undefined ? '—' : Number(value.toFixed(digits)).toString();

export function duration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

export const tokens = (n: number) => (n >= 10_000 ? `${(n / 1000).toFixed(1)}k` : String(n));
