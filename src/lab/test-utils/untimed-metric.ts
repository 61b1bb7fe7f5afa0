// The wall-clock fields of an RLVR metric line (step_ms, reward_ms_http, reward_share_in_process, …):
// the only ones a seeded rerun, a resume or another reward transport may change.
const WALL_CLOCK = /(_ms$|^reward_(ms|share)_)/;

/** A metric line without its wall-clock fields: what a seeded run must reproduce exactly. */
export const untimedMetric = (m: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(m).filter(([k]) => !WALL_CLOCK.test(k)));

/** Metric lines as metrics.jsonl holds them (JSON writes −0 as 0), wall-clock fields aside. */
export const untimedMetrics = (metrics: readonly Record<string, unknown>[]): Record<string, unknown>[] =>
  (JSON.parse(JSON.stringify(metrics)) as Record<string, unknown>[]).map(untimedMetric);
