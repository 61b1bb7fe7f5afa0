import { z } from 'zod';

/**
 * The query parameters of the inspector's API, validated at the edge: a bad one is a 400 that
 * names the parameter. Numbers arrive as strings, so they are coerced, then checked.
 */

const finite = z.coerce.number().refine(Number.isFinite, 'expected a finite number');
const count = (max: number, fallback: number) => z.coerce.number().int().min(0).max(max).default(fallback);

export const RunsQuerySchema = z.strictObject({
  limit: count(500, 50),
});

export const SamplesQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: count(100_000_000, 0),
  sort: z.enum(['position', 'reward', 'sample_id', 'total_ms']).default('position'),
  order: z.enum(['asc', 'desc']).default('asc'),
  status: z.enum(['ok', 'failed']).optional(),
  source: z.string().min(1).max(200).optional(),
  data_source: z.string().min(1).max(200).optional(),
  min_reward: finite.optional(),
  max_reward: finite.optional(),
  q: z.string().max(200).optional(),
});

export const CompareQuerySchema = z.strictObject({
  a: z.string().min(1),
  b: z.string().min(1),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: count(100_000_000, 0),
  filter: z.enum(['changed', 'improved', 'regressed', 'status']).default('changed'),
});

export const HistogramQuerySchema = z.strictObject({
  bins: z.coerce.number().int().min(1).max(200).default(20),
});

export const SeriesQuerySchema = z.strictObject({
  buckets: z.coerce.number().int().min(1).max(500).default(60),
});

export const SampleTextQuerySchema = z.strictObject({
  field: z.enum(['prompt', 'response', 'reference']).default('response'),
});

export const CallTextQuerySchema = z.strictObject({
  evidence: z.coerce.number().int().min(0),
  call: z.coerce.number().int().min(0),
  field: z.enum(['raw', 'parsed', 'message']).default('raw'),
  /** Which message, for `field=message`. */
  message: z.coerce.number().int().min(0).default(0),
});

/** The samples route's filters and sort, without paging: every row the table would show. */
export const ExportQuerySchema = SamplesQuerySchema.omit({ limit: true, offset: true }).extend({
  format: z.enum(['jsonl', 'csv']).default('jsonl'),
});
