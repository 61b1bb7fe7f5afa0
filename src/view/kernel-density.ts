/**
 * A Gaussian kernel density of `values` at `at`, with Silverman's rule-of-thumb bandwidth
 * (0.9 · min(σ, IQR/1.34) · n^(−1/5)) — enough to draw a violin's outline, not to test anything.
 * A constant sample gets a bandwidth of 1% of its magnitude (or 0.01), so it draws as a thin spike.
 */
export function kernelDensity(values: readonly number[], at: readonly number[]): number[] {
  const n = values.length;
  if (n === 0) return at.map(() => 0);
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / Math.max(1, n - 1));
  const q = (p: number) => sorted[Math.min(n - 1, Math.floor(p * n))] as number;
  const spread = Math.min(sd, (q(0.75) - q(0.25)) / 1.34) || sd;
  const h = spread > 0 ? 0.9 * spread * n ** -0.2 : Math.max(0.01, Math.abs(mean) * 0.01);
  const norm = 1 / (n * h * Math.sqrt(2 * Math.PI));
  return at.map((x) => norm * sorted.reduce((s, v) => s + Math.exp(-0.5 * ((x - v) / h) ** 2), 0));
}
