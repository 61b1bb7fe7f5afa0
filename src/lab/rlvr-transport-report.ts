import type { RewardTransport } from './rlvr-step-rewards.js';

interface TimedRun {
  run: string;
  metrics: readonly {
    step_ms?: number;
    reward_ms_in_process?: number;
    reward_ms_http?: number;
    reward_share_in_process?: number;
    reward_share_http?: number;
  }[];
  failures: readonly unknown[];
  disagreements?: readonly unknown[];
}

const meanOf = (xs: readonly (number | undefined)[]): number | null => {
  const present = xs.filter((x): x is number => x !== undefined);
  return present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length;
};

function runTimes(r: TimedRun) {
  return {
    step_ms: meanOf(r.metrics.map((m) => m.step_ms)),
    reward_ms_in_process: meanOf(r.metrics.map((m) => m.reward_ms_in_process)),
    reward_ms_http: meanOf(r.metrics.map((m) => m.reward_ms_http)),
    reward_share_in_process: meanOf(r.metrics.map((m) => m.reward_share_in_process)),
    reward_share_http: meanOf(r.metrics.map((m) => m.reward_share_http)),
  };
}

/**
 * `summary.json`'s `transport`: where rewards were computed, the mean reward share of step time
 * each way (over the steps this process trained; runs read back keep the times they were trained
 * with), and the disagreements between the two, which must be 0.
 */
export function transportSummary(o: { rewardTransport: RewardTransport }, runs: readonly TimedRun[]) {
  const steps = runs.flatMap((r) => r.metrics);
  return {
    mode: o.rewardTransport,
    trains: o.rewardTransport === 'http' ? 'http' : 'in-process',
    ...runTimes({ run: 'all', metrics: steps, failures: [] }),
    failed_rollouts: runs.reduce((n, r) => n + r.failures.length, 0),
    disagreements: runs.reduce((n, r) => n + (r.disagreements?.length ?? 0), 0),
  };
}

/** The report's table: per run, the mean step and reward times and the reward's share, both ways. */
export function transportTable(runs: readonly TimedRun[]) {
  const ms = (x: number | null) => (x === null ? '—' : x.toFixed(1));
  const pct = (x: number | null) => (x === null ? '—' : `${(100 * x).toFixed(1)}%`);
  return {
    title: 'reward transport: mean per RL step',
    columns: [
      'run',
      'step ms',
      'reward ms (in-process)',
      'reward ms (HTTP)',
      'reward share (in-process)',
      'reward share (HTTP)',
      'disagreements',
    ],
    rows: runs.map((r) => {
      const t = runTimes(r);
      return [
        r.run,
        ms(t.step_ms),
        ms(t.reward_ms_in_process),
        ms(t.reward_ms_http),
        pct(t.reward_share_in_process),
        pct(t.reward_share_http),
        r.disagreements?.length ?? 0,
      ];
    }),
  };
}
