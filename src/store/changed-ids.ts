import type { ChangedSample, CompareFilter, RunComparison } from './run-views.js';

/** How a changed sample changed, as bits: the comparison query computes them in SQL. */
export const IMPROVED = 1;
export const REGRESSED = 2;
export const STATUS_CHANGED = 4;

const FILTER_BIT: Record<CompareFilter, number> = {
  changed: 0,
  improved: IMPROVED,
  regressed: REGRESSED,
  status: STATUS_CHANGED,
};

/**
 * The changed samples of two runs in the comparison's order (largest change first), each with how
 * it changed, and the counts the comparison reports: read once per pair of run versions, so that
 * every page and filter after the first is a slice of this list and two lookups per row.
 */
export interface ChangedIds {
  readonly inA: number;
  readonly inB: number;
  readonly common: number;
  readonly ids: readonly string[];
  readonly flags: Uint8Array;
  readonly improved: number;
  readonly regressed: number;
  readonly statusChanged: number;
}

/** The list and its counts from the changed rows, in order, as `[sample_id, flags]`. */
export function changedIdsOf(
  counts: { inA: number; inB: number; common: number },
  rows: readonly (readonly [string, number])[],
): ChangedIds {
  const flags = new Uint8Array(rows.length);
  let improved = 0;
  let regressed = 0;
  let statusChanged = 0;
  rows.forEach(([, bits], i) => {
    flags[i] = bits;
    if (bits & IMPROVED) improved++;
    if (bits & REGRESSED) regressed++;
    if (bits & STATUS_CHANGED) statusChanged++;
  });
  return { ...counts, ids: rows.map(([id]) => id), flags, improved, regressed, statusChanged };
}

/** The ids of one page of the changed samples that `filter` keeps. */
export function changedPage(
  changed: ChangedIds,
  filter: CompareFilter,
  page: { limit: number; offset: number },
): string[] {
  const bit = FILTER_BIT[filter];
  if (bit === 0) return changed.ids.slice(page.offset, page.offset + page.limit);
  const ids: string[] = [];
  let skipped = 0;
  for (let i = 0; i < changed.ids.length && ids.length < page.limit; i++) {
    if (((changed.flags[i] ?? 0) & bit) === 0) continue;
    if (skipped < page.offset) skipped++;
    else ids.push(changed.ids[i] as string);
  }
  return ids;
}

/** The comparison's answer: the list's counts and one page of rows. */
export function comparisonOf(changed: ChangedIds, rows: readonly ChangedSample[]): RunComparison {
  return {
    common: changed.common,
    only_a: changed.inA - changed.common,
    only_b: changed.inB - changed.common,
    changed: changed.ids.length,
    improved: changed.improved,
    regressed: changed.regressed,
    status_changed: changed.statusChanged,
    rows,
  };
}
