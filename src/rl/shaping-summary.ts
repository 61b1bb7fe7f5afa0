import type { GroupShaping } from './group-shaping.js';

/** Count, mean, population std, min and max of some values; null where there were none. */
export interface ValueStats {
  readonly count: number;
  readonly mean: number | null;
  readonly std: number | null;
  readonly min: number | null;
  readonly max: number | null;
}

/** One shaped group as a report lists it. */
export interface ShapedGroupRow {
  readonly group: string;
  /** The rewards the advantages came from: the method's shaped rewards, else the row's `rewards`; null when neither. */
  readonly rewards: readonly (number | null)[] | null;
  /** True when `rewards` are the method's shaped rewards (BRPO, CLIPO, RFN, Tri-Factor). */
  readonly shaped: boolean;
  readonly advantages: readonly number[];
  readonly clip_bounds?: readonly { low: number; high: number }[];
  readonly failed: readonly number[];
  readonly filtered?: boolean;
}

/** What a run of group shaping did, over every group, with the first groups and failures in full. */
export interface ShapingSummary {
  readonly groups: number;
  readonly ok: number;
  readonly failed: number;
  /** Rollouts of the groups shaped, and those among them that failed to score (left out of the stats). */
  readonly rollouts: number;
  readonly failed_rollouts: number;
  /** Shaped groups whose advantages are all 0 — every rollout scored alike, or BRPO filtered the group: no learning signal. */
  readonly zero_signal_groups: number;
  readonly filtered_groups: number;
  /** Over the scored rollouts (failed ones are left out: their 0 says nothing). */
  readonly advantages: ValueStats;
  readonly rewards: ValueStats;
  /** ETR: the per-rollout bounds on the probability ratio. */
  readonly clip_low: ValueStats;
  readonly clip_high: ValueStats;
  /** Every value behind the stats, for histograms. */
  readonly values: {
    readonly advantages: readonly number[];
    readonly rewards: readonly number[];
    readonly clip_low: readonly number[];
    readonly clip_high: readonly number[];
  };
  /** The first `keepGroups` groups shaped, in input order. */
  readonly shown: readonly ShapedGroupRow[];
  /** The first `keepGroups` failures, in input order. */
  readonly failures: readonly {
    readonly group?: string;
    readonly line: number;
    readonly errors: readonly string[];
  }[];
}

export interface ShapingSummaryBuilder {
  /** A group shaped: its row as read (for its `rewards`) and the method's output. */
  add(row: unknown, shaping: GroupShaping): void;
  /** A row that was malformed or that the method failed on. */
  addFailed(line: { group?: string; line: number; errors: readonly string[] }): void;
  summary(): ShapingSummary;
}

function stats(values: readonly number[]): ValueStats {
  const count = values.length;
  if (count === 0) return { count, mean: null, std: null, min: null, max: null };
  let sum = 0;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const mean = sum / count;
  let squares = 0;
  for (const v of values) squares += (v - mean) ** 2;
  return { count, mean, std: Math.sqrt(squares / count), min, max };
}

/** The row's own `rewards`, when it has a list of numbers and nulls there. */
function rowRewards(row: unknown): (number | null)[] | null {
  const rewards = (row as { rewards?: unknown } | null)?.rewards;
  return Array.isArray(rewards) && rewards.every((r) => r === null || typeof r === 'number') ? rewards : null;
}

/**
 * Gathers what a run of group shaping did, group by group in input order: counts, the groups with
 * no learning signal, statistics of advantages, rewards and clip bounds over the scored rollouts,
 * and the first `keepGroups` groups and failures in full (default 100).
 */
export function createShapingSummary(options: { keepGroups?: number } = {}): ShapingSummaryBuilder {
  const keep = options.keepGroups ?? 100;
  const values = {
    advantages: [] as number[],
    rewards: [] as number[],
    clip_low: [] as number[],
    clip_high: [] as number[],
  };
  const shown: ShapedGroupRow[] = [];
  const failures: ShapingSummary['failures'][number][] = [];
  const counts = {
    ok: 0,
    failed: 0,
    rollouts: 0,
    failed_rollouts: 0,
    zero_signal_groups: 0,
    filtered_groups: 0,
  };
  return {
    add(row, shaping) {
      counts.ok++;
      const failed = new Set(shaping.failed ?? []);
      const rewards = shaping.shaped_rewards ?? rowRewards(row);
      counts.rollouts += shaping.advantages.length;
      counts.failed_rollouts += failed.size;
      if (shaping.advantages.every((a) => a === 0)) counts.zero_signal_groups++;
      if (shaping.filtered) counts.filtered_groups++;
      shaping.advantages.forEach((advantage, i) => {
        if (failed.has(i)) return;
        values.advantages.push(advantage);
        const reward = rewards?.[i];
        if (typeof reward === 'number') values.rewards.push(reward);
        const bounds = shaping.clip_bounds?.[i];
        if (bounds) {
          values.clip_low.push(bounds.low);
          values.clip_high.push(bounds.high);
        }
      });
      if (shown.length < keep)
        shown.push({
          group: shaping.group,
          rewards,
          shaped: shaping.shaped_rewards !== undefined,
          advantages: shaping.advantages,
          ...(shaping.clip_bounds && { clip_bounds: shaping.clip_bounds }),
          failed: [...failed],
          ...(shaping.filtered !== undefined && { filtered: shaping.filtered }),
        });
    },
    addFailed(line) {
      counts.failed++;
      if (failures.length < keep) failures.push(line);
    },
    summary() {
      return {
        groups: counts.ok + counts.failed,
        ...counts,
        advantages: stats(values.advantages),
        rewards: stats(values.rewards),
        clip_low: stats(values.clip_low),
        clip_high: stats(values.clip_high),
        values,
        shown,
        failures,
      };
    },
  };
}
