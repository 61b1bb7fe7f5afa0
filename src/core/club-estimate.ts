/**
 * CLUB, the contrastive log-ratio upper bound on mutual information (Cheng et al. 2020), in plain
 * numbers, in nats. It lives in core because both the lab (DIR's training objective) and the audit
 * (bias attributes against the reward) use it, and neither may depend on the other.
 */

/**
 * CLUB's estimate Î = (1/N) Σ_i log q(A_i|z_i) − (1/N²) Σ_i Σ_j log q(A_j|z_i), with q's class
 * probabilities per sample (`q[i][a]` = q(a | z_i)) and the samples' labels `labels[j]`.
 */
export function clubEstimate(q: readonly (readonly number[])[], labels: readonly number[]): number {
  const n = labels.length;
  if (n === 0 || q.length !== n) throw new RangeError(`clubEstimate: ${q.length} rows of q for ${n} labels`);
  const logq = (i: number, a: number) => Math.log(q[i]?.[a] ?? Number.NaN);
  let positive = 0;
  let all = 0;
  for (let i = 0; i < n; i++) {
    positive += logq(i, labels[i] as number);
    for (let j = 0; j < n; j++) all += logq(i, labels[j] as number);
  }
  return positive / n - all / (n * n);
}

/**
 * CLUB for a scalar attribute `y` given a scalar representation `x` with a linear-Gaussian q(y|x)
 * fitted by least squares: the audit's estimate for a continuous attribute against a continuous reward, and
 * the check that CLUB bounds the true MI from above on Gaussian pairs (where the true conditional
 * is linear-Gaussian, its population value is ρ²/(1−ρ²) ≥ −½ log(1−ρ²)).
 */
export function gaussianClubEstimate(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  if (n < 3 || y.length !== n)
    throw new RangeError(`gaussianClubEstimate: need ≥ 3 pairs, got ${n} and ${y.length}`);
  const mean = (v: readonly number[]) => v.reduce((s, t) => s + t, 0) / v.length;
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  for (let i = 0; i < n; i++) {
    sxy += ((x[i] as number) - mx) * ((y[i] as number) - my);
    sxx += ((x[i] as number) - mx) ** 2;
  }
  const slope = sxx === 0 ? 0 : sxy / sxx;
  const mu = x.map((xi) => my + slope * (xi - mx));
  const residual = y.reduce((s, yi, i) => s + (yi - (mu[i] as number)) ** 2, 0) / n;
  if (residual === 0) return Number.POSITIVE_INFINITY;
  // log q(y|x) = −½ log(2πσ²) − (y − μ)²/(2σ²); the constant cancels between the two terms.
  const positive = residual;
  // (1/N²) Σ_i Σ_j (y_j − μ_i)² = mean(y²) − 2·mean(y)·mean(μ) + mean(μ²)
  const crossed = mean(y.map((v) => v * v)) - 2 * my * mean(mu) + mean(mu.map((v) => v * v));
  return (crossed - positive) / (2 * residual);
}
