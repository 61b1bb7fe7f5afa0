import type { z } from 'zod';
import type { SampleQuery } from '../store/index.js';
import type { SamplesQuerySchema } from './view-queries.js';

/** The table's filters and sort, as the samples and export routes read them from the query. */
export type SampleFilters = Omit<z.output<typeof SamplesQuerySchema>, 'limit' | 'offset'>;

/** The store query for one page of the rows the filters select. */
export function sampleQueryOf(q: SampleFilters, page: { limit: number; offset: number }): SampleQuery {
  return {
    limit: page.limit,
    offset: page.offset,
    sort: q.sort,
    order: q.order,
    ...(q.status !== undefined && { status: q.status }),
    ...(q.source !== undefined && { source: q.source }),
    ...(q.data_source !== undefined && { dataSource: q.data_source }),
    ...(q.min_reward !== undefined && { minReward: q.min_reward }),
    ...(q.max_reward !== undefined && { maxReward: q.max_reward }),
    ...(q.q !== undefined && { text: q.q }),
  };
}
