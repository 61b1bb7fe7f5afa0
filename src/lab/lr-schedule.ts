/** Linear warmup to `lr`, then cosine decay to `minRatio · lr` at `steps` (0-based step). */
export function warmupCosine(
  step: number,
  o: { lr: number; warmup: number; steps: number; minRatio?: number },
): number {
  const min = o.lr * (o.minRatio ?? 0.1);
  if (step < o.warmup) return (o.lr * (step + 1)) / o.warmup;
  const progress = Math.min(1, (step - o.warmup) / Math.max(1, o.steps - o.warmup));
  return min + 0.5 * (o.lr - min) * (1 + Math.cos(Math.PI * progress));
}
