/**
 * P-POTS: sample the masking time t from a density p(t) ∝ sqrt(g(t)² + v(t)) (g, v the mean and
 * within-t variance of the loss) and weight the loss by 1/p(t): unbiased, and of least variance.
 */

/** The estimation grid: linspace(1/N, 1 − 1/N, N − 1). */
export const pPotsGrid = (n: number): number[] => Array.from({ length: n - 1 }, (_, i) => (i + 1) / n);

const QUADRATURE = 4000;

/** ∫₀¹ f by the midpoint rule (the integrands here are smooth on (0, 1)). */
export function integrate01(f: (t: number) => number): number {
  let sum = 0;
  for (let i = 0; i < QUADRATURE; i++) sum += f((i + 0.5) / QUADRATURE);
  return sum / QUADRATURE;
}

/** The optimal density p*(t) = sqrt(g² + v) / ∫ sqrt(g² + v). */
export function optimalTimestepDensity(
  g: (t: number) => number,
  v: (t: number) => number,
): (t: number) => number {
  const f = (t: number) => Math.sqrt(g(t) ** 2 + v(t));
  const z = integrate01(f);
  return (t) => f(t) / z;
}

/** Var of the importance-weighted estimate loss(t)/p(t), t ~ p: ∫ loss²/p − (∫ loss)². */
export const importanceVariance = (loss: (t: number) => number, p: (t: number) => number): number =>
  integrate01((t) => loss(t) ** 2 / p(t)) - integrate01(loss) ** 2;

/** The EPR family's parameters; all positive (fitted in log space). */
export interface EprParams {
  a: number;
  r: number;
  b: number;
  q: number;
  A: number;
  kappa: number;
  m: number;
}

/** The unnormalized EPR profile sqrt(a t^r + b (1−t)^q + A² e^{2κ t^m}). */
export const eprProfile = (e: EprParams, t: number): number =>
  Math.sqrt(e.a * t ** e.r + e.b * (1 - t) ** e.q + e.A ** 2 * Math.exp(2 * e.kappa * t ** e.m));

const normalize = (xs: number[]) => {
  const z = xs.reduce((s, x) => s + x, 0);
  return xs.map((x) => x / z);
};

/** KL(target ‖ model) of two profiles on the grid, each normalized to a distribution. */
export function gridKl(target: number[], model: number[]): number {
  const p = normalize(target);
  const q = normalize(model);
  return p.reduce((s, pi, i) => (pi > 0 ? s + pi * Math.log(pi / Math.max(q[i] as number, 1e-300)) : s), 0);
}

/** Nelder–Mead minimization from `start` (a few hundred evaluations of a 7-parameter KL). */
function nelderMead(f: (x: number[]) => number, start: number[], iterations = 600): number[] {
  const n = start.length;
  let simplex = [start, ...start.map((_, i) => start.map((x, j) => (i === j ? x + 0.5 : x)))].map((x) => ({
    x,
    f: f(x),
  }));
  const along = (a: number[], b: number[], s: number) => a.map((ai, i) => ai + s * ((b[i] as number) - ai));
  for (let it = 0; it < iterations; it++) {
    simplex.sort((p, q) => p.f - q.f);
    const worst = simplex[n] as { x: number[]; f: number };
    const centroid = start.map((_, j) => simplex.slice(0, n).reduce((s, p) => s + (p.x[j] as number), 0) / n);
    const reflected = along(centroid, worst.x, -1);
    const fr = f(reflected);
    if (fr < (simplex[0] as { f: number }).f) {
      const expanded = along(centroid, worst.x, -2);
      const fe = f(expanded);
      simplex[n] = fe < fr ? { x: expanded, f: fe } : { x: reflected, f: fr };
    } else if (fr < (simplex[n - 1] as { f: number }).f) simplex[n] = { x: reflected, f: fr };
    else {
      const contracted = along(centroid, worst.x, 0.5);
      const fc = f(contracted);
      if (fc < worst.f) simplex[n] = { x: contracted, f: fc };
      else {
        const best = (simplex[0] as { x: number[] }).x;
        simplex = simplex.map((p, i) =>
          i === 0 ? p : { x: along(best, p.x, 0.5), f: f(along(best, p.x, 0.5)) },
        );
      }
    }
  }
  simplex.sort((p, q) => p.f - q.f);
  return (simplex[0] as { x: number[] }).x;
}

const KEYS = ['a', 'r', 'b', 'q', 'A', 'kappa', 'm'] as const;

/** Fits the EPR family to an empirical profile on the grid by minimizing KL (Nelder–Mead in log space). */
export function fitEpr(grid: number[], empirical: number[]): { params: EprParams; kl: number } {
  const toParams = (x: number[]) =>
    Object.fromEntries(KEYS.map((k, i) => [k, Math.exp(x[i] as number)])) as unknown as EprParams;
  const loss = (x: number[]) => {
    const kl = gridKl(
      empirical,
      grid.map((t) => eprProfile(toParams(x), t)),
    );
    return Number.isFinite(kl) ? kl : 1e9;
  };
  const best = nelderMead(loss, [0, 0, 0, 0, -1, -1, 0]);
  return { params: toParams(best), kl: loss(best) };
}

/** A piecewise-constant density on cells of width 1/N centred on the grid points, normalized to ∫ = 1. */
export interface GridDensity {
  grid: number[];
  /** Density on each cell. */
  density: number[];
  /** Cumulative mass at each cell's right edge. */
  cdf: number[];
}

export function gridDensity(grid: number[], profile: number[]): GridDensity {
  const width = grid.length > 1 ? (grid[1] as number) - (grid[0] as number) : 1;
  const mass = normalize(profile);
  let c = 0;
  return { grid, density: mass.map((m) => m / width), cdf: mass.map((m) => (c += m)) };
}

/** Inverse-CDF draw from `u ∈ [0, 1)`: t, its density, and the importance weight min(cap, 1/p(t)). */
export function samplePPots(d: GridDensity, u: number, cap: number): { t: number; weight: number } {
  let k = d.cdf.findIndex((c) => u < c);
  if (k < 0) k = d.cdf.length - 1;
  const width = d.grid.length > 1 ? (d.grid[1] as number) - (d.grid[0] as number) : 1;
  const below = k === 0 ? 0 : (d.cdf[k - 1] as number);
  const within = ((u - below) / ((d.cdf[k] as number) - below || 1)) * width;
  const t = (d.grid[k] as number) - width / 2 + within;
  return { t, weight: Math.min(cap, 1 / (d.density[k] as number)) };
}
