import {
  arrayOf,
  type Guarded,
  isNumber,
  isString,
  nullable,
  objectOf,
  optional,
} from '../judgments/shape-guards';

const figure = nullable(isNumber);

/** `rewardkit bench`'s report (src/bench/bench-report.ts), as a bench run's summary keeps it. */
const isBenchReport = objectOf({
  title: isString,
  score: figure,
  metric: isString,
  upstream: nullable(isString),
  ours: arrayOf(objectOf({ name: isString, score: figure, metric: isString })),
  table: objectOf({
    columns: arrayOf(isString),
    headline_columns: isNumber,
    rows: arrayOf(objectOf({ name: isString, items: isNumber, values: arrayOf(figure) })),
  }),
  items: objectOf({ judged: isNumber, failed: isNumber, unanswered: isNumber }),
  judge_metrics: objectOf({
    judgments: isNumber,
    position_consistency: figure,
    position_consistency_pairs: isNumber,
    tie_rate: figure,
    inconsistent_rate: figure,
    invalid_rate: figure,
    length: objectOf({ pearson: figure, pairs: isNumber, longer_preferred_rate: figure }),
    calls_per_judgment: figure,
    prompt_tokens_per_judgment: figure,
    completion_tokens_per_judgment: figure,
  }),
  judge: optional(isString),
  model: optional(isString),
});
export type BenchReportSummary = Guarded<typeof isBenchReport>;

/** A bench run's summary: `{kind: 'bench', headline, report}` (src/cli/commands/bench-command.ts). */
export const isBenchSummary = objectOf({ kind: isString, report: isBenchReport });
