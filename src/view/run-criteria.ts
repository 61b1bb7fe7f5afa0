import type { Store } from '../store/index.js';
import { type CriterionStat, createCriterionTally } from './criterion-tally.js';

/** Results read per query: a page's evidence in memory at once, not the run's. */
export const CRITERIA_PAGE_ROWS = 1000;

/**
 * A run's per-criterion results from its stored evidence, read in save order a page at a time
 * and tallied as they come (criterion-tally.ts), so a run of a million results is never held.
 */
export async function runCriteria(
  store: Pick<Store, 'listResults'>,
  runId: string,
): Promise<CriterionStat[]> {
  const tally = createCriterionTally();
  for (let offset = 0; ; offset += CRITERIA_PAGE_ROWS) {
    const page = await store.listResults(runId, { limit: CRITERIA_PAGE_ROWS, offset });
    for (const result of page) tally.add(result.id, result.evidence);
    if (page.length < CRITERIA_PAGE_ROWS) return tally.stats();
  }
}
