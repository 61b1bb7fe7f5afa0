/**
 * GAP's alignment pieces as pure functions on plain arrays (float64): the PCA basis of the input
 * embeddings, the norm match, and the capacity-level selection.
 */

/** The top-k principal directions `P [k][D]` (orthonormal rows) of `rows` and their mean `mu`. */
export function pcaBasis(rows: number[][], k: number): { basis: number[][]; mu: number[] } {
  const d = (rows[0] as number[]).length;
  const mu = Array.from(
    { length: d },
    (_, j) => rows.reduce((s, r) => s + (r[j] as number), 0) / rows.length,
  );
  const centred = rows.map((r) => r.map((x, j) => x - (mu[j] as number)));
  const cov = Array.from({ length: d }, (_, i) =>
    Array.from({ length: d }, (_, j) => centred.reduce((s, r) => s + (r[i] as number) * (r[j] as number), 0)),
  );
  const basis: number[][] = [];
  for (let c = 0; c < k; c++) {
    // Power iteration, deflated against the directions found so far by Gram–Schmidt.
    let v = Array.from({ length: d }, (_, j) => Math.sin(j * 12.9898 + c * 78.233) + 1e-3);
    for (let it = 0; it < 300; it++) {
      let w = cov.map((row) => row.reduce((s, x, j) => s + x * (v[j] as number), 0));
      for (const b of basis) {
        const dot = w.reduce((s, x, j) => s + x * (b[j] as number), 0);
        w = w.map((x, j) => x - dot * (b[j] as number));
      }
      const norm = Math.hypot(...w);
      if (norm === 0) break;
      v = w.map((x) => x / norm);
    }
    basis.push(v);
  }
  return { basis, mu };
}

/** The residual of `v` outside `mu + span(basis)` (orthonormal rows): ‖(v − mu) − P^T P (v − mu)‖. */
export function spanResidual(v: number[], basis: number[][], mu: number[]): number {
  const x = v.map((vi, j) => vi - (mu[j] as number));
  const projected = basis.reduce(
    (acc, b) => {
      const dot = x.reduce((s, xi, j) => s + xi * (b[j] as number), 0);
      return acc.map((a, j) => a + dot * (b[j] as number));
    },
    x.map(() => 0),
  );
  return Math.hypot(...x.map((xi, j) => xi - (projected[j] as number)));
}

/** Capacity-level alignment: supervise the latent only where the base model's estimated accuracy ≤ tau. */
export const capacitySelection = (accuracies: readonly number[], tau: number): boolean[] =>
  accuracies.map((a) => a <= tau);
