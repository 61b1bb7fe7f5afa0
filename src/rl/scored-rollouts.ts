/**
 * The rollouts of a group that were scored. A null entry is a sample that failed to score: it is
 * left out of every group statistic (a failure is not evidence that the rollout was bad, so it is
 * never read as reward 0), its advantage is 0 and its index is reported in `failed`.
 */
export interface ScoredRollouts<T> {
  /** Indices into the group of the scored rollouts, in order. */
  indices: number[];
  values: T[];
  /** Indices of the null entries. */
  failed: number[];
}

export function scoredRollouts<T>(entries: ReadonlyArray<T | null>): ScoredRollouts<T> {
  const indices: number[] = [];
  const values: T[] = [];
  const failed: number[] = [];
  entries.forEach((v, i) => {
    if (v === null) failed.push(i);
    else {
      indices.push(i);
      values.push(v);
    }
  });
  return { indices, values, failed };
}

/** Puts per-scored-rollout values back at their group positions, `fill` for the failed ones. */
export function spreadToGroup<T>(
  scored: ScoredRollouts<unknown>,
  size: number,
  values: readonly T[],
  fill: T,
): T[] {
  const out = new Array<T>(size).fill(fill);
  scored.indices.forEach((index, k) => {
    out[index] = values[k] as T;
  });
  return out;
}
