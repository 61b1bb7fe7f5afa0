import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { untimedMetric } from '../src/lab/test-utils/untimed-metric.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';

// Seconds-long smoke configurations of every lab experiment: the full sweeps are not tests.
const SIAMESE = [
  '--depths',
  '1,2',
  '--lrs',
  '3e-2',
  '--width',
  '16',
  '--heads',
  '2',
  '--seq-len',
  '16',
  '--batch',
  '4',
];
const SIAMESE_RUN = [
  ...SIAMESE,
  '--steps',
  '12',
  '--warmup',
  '2',
  '--corpus-chars',
  '5000',
  '--eval-batches',
  '1',
  '--log-every',
  '2',
  '--checkpoint-every',
  '5',
];
const MDM = [
  '--task',
  'sorting',
  '--digits',
  '2',
  '--steps',
  '12',
  '--warmup',
  '2',
  '--variance-steps',
  '6',
  '--seeds',
  '0,1',
];
const MDM_RUN = [
  ...MDM,
  '--width',
  '16',
  '--heads',
  '2',
  '--batch',
  '8',
  '--eval-examples',
  '16',
  '--variance-draws',
  '2',
  '--variance-masks',
  '2',
  '--ppots-grid',
  '5',
  '--ppots-examples',
  '4',
  '--ppots-masks',
  '2',
];
const GAP_RUN = [
  '--width',
  '16',
  '--heads',
  '2',
  '--depth',
  '2',
  '--batch',
  '8',
  '--base-steps',
  '12',
  '--latent-steps',
  '8',
  '--warmup',
  '2',
  '--pca-k',
  '4',
  '--eval-examples',
  '32',
];
const DIR_RUN = [
  '--width',
  '8',
  '--heads',
  '2',
  '--depth',
  '1',
  '--q-hidden',
  '8',
  '--batch',
  '8',
  '--steps',
  '10',
  '--warmup',
  '2',
  '--eval-pairs',
  '32',
  '--refit-steps',
  '5',
  '--log-every',
  '5',
  '--checkpoint-every',
  '4',
];

interface SavedVerdict {
  claim: string;
  status: string;
  metric: string;
  effect: number | null;
  ci: [number | null, number | null];
  seeds: number;
  why?: string;
}

/**
 * The report files of a smoke run: `summary.json` holds one structured verdict per claim, and at
 * smoke sizes each is `too_small` naming the documented minimum; stdout prints one line per verdict
 * and never a held / not held.
 */
function expectReport(dir: string, stdout: string, verdicts: number, seeds: number) {
  const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as {
    verdicts: SavedVerdict[];
    claim: string;
  };
  expect(summary.verdicts).toHaveLength(verdicts);
  for (const v of summary.verdicts) {
    expect(v).toEqual({
      claim: expect.any(String),
      status: 'too_small',
      metric: expect.any(String),
      effect: v.effect === null ? null : expect.any(Number),
      ci: [null, null],
      seeds: expect.any(Number),
      why: expect.stringMatching(/^below the documented minimum: --.* \(docs\/lab\.md\)$/),
    });
    expect(v.seeds).toBeLessThanOrEqual(seeds);
  }
  const lines = stdout.trim().split('\n');
  expect(lines).toEqual(summary.verdicts.map((v) => `${v.claim}: too small — ${v.why}`));
  expect(stdout).not.toMatch(/\b(held|not held|inconclusive)\b/);
  expect(summary.claim.length).toBeGreaterThan(20);
  const metrics = readJsonl(join(dir, 'metrics.jsonl'));
  expect(metrics.length).toBeGreaterThan(0);
  expect(metrics[0]).toMatchObject({ step: 0, run: expect.any(String), loss: expect.any(Number) });
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  expect(html).toContain('<svg');
  expect(html).toContain('too small — below the documented minimum');
  expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
  return summary;
}

const RLVR_RUN = [
  '--seeds',
  '0,1',
  '--width',
  '16',
  '--heads',
  '2',
  '--depth',
  '1',
  '--sft-steps',
  '20',
  '--sft-batch',
  '8',
  '--rl-steps',
  '3',
  '--prompts',
  '2',
  '--group',
  '4',
  '--eval-examples',
  '10',
  '--eval-every',
  '2',
  '--checkpoint-every',
  '2',
];

describe('rewardkit lab', () => {
  test('siamesenorm runs end to end, prints its verdicts, and a rerun resumes instead of retraining', async () => {
    const out = tempDir();
    const first = await runCli(['lab', 'siamesenorm', ...SIAMESE_RUN, '-o', out]);
    expect(first.stderr).toContain('report.html');
    expect(first.code).toBe(0);
    const summary = expectReport(out, first.stdout, 8, 3) as ReturnType<typeof expectReport> & {
      runs: {
        norm: string;
        depth: number;
        lr: number;
        seed: number;
        initial_loss: number;
        val_loss: number | null;
        diverged_at: number | null;
      }[];
    };
    const pre = 'at the highest lr where Pre-Norm is stable: SiameseNorm below Pre-Norm';
    expect(summary.verdicts.map((v) => v.claim)).toEqual([
      'stability at lr 0.03, depth 1: SiameseNorm stable where Post-Norm is not',
      'stability at lr 0.03, depth 2: SiameseNorm stable where Post-Norm is not',
      "stability with depth at lr 0.03: Post-Norm's instability grows from depth 1 to 2 more than SiameseNorm's",
      'stability at lr 0.03, depth 1: SiameseNorm stable where DeepNorm is not',
      'stability at lr 0.03, depth 2: SiameseNorm stable where DeepNorm is not',
      "stability with depth at lr 0.03: DeepNorm's instability grows from depth 1 to 2 more than SiameseNorm's",
      `validation loss at depth 1, ${pre}`,
      `validation loss at depth 2, ${pre}`,
    ]);
    expect(summary.verdicts[0]?.why).toBe(
      'below the documented minimum: --steps 12 < 100, --eval-batches 1 < 2 (docs/lab.md)',
    );
    // One run per (depth, lr, seed, placement), each with the untrained model's loss near ln(vocab)
    // and a validation loss unless it diverged.
    expect(summary.runs).toHaveLength(2 * 3 * 4);
    for (const r of summary.runs) {
      expect(r.initial_loss).toBeGreaterThan(1);
      expect(r.initial_loss).toBeLessThan(6);
      expect(r.val_loss === null).toBe(r.diverged_at !== null);
    }
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toContain(
      'stable runs over seeds (neither diverged nor stalled), per depth and lr',
    );
    // Finished runs are read back; a run whose result is gone trains again, to the same numbers.
    const runs = join(out, 'runs');
    expect(existsSync(join(runs, 'siamese-d2-lr0.03-s0.result.json'))).toBe(true);
    const second = await runCli(['lab', 'siamesenorm', ...SIAMESE_RUN, '-o', out]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    rmSync(join(runs, 'pre-d2-lr0.03-s0.result.json'));
    const third = await runCli(['lab', 'siamesenorm', ...SIAMESE_RUN, '-o', out]);
    expect(third.stdout).toBe(first.stdout);
  });

  test('mdm runs end to end with every method', async () => {
    const out = tempDir();
    const every = ['standard', 'ppots', 'mirror', 'pair', 'strats', 'isad', 'ppots+mirror', 'ar'];
    const run = await runCli(['lab', 'mdm', ...MDM_RUN, '--methods', every.join(','), '-o', out]);
    expect(run.stderr).toContain('report.html');
    expect(run.code).toBe(0);
    // Three per method with a baseline (ppots, mirror, strats, isad, ppots+mirror), then ar's three.
    const summary = expectReport(out, run.stdout, 18, 2) as unknown as {
      methods: { method: string; variance: unknown[]; total_variance: number[]; accuracy: unknown[] }[];
    };
    expect(summary.methods.map((m) => m.method)).toEqual(every);
    // One variance measurement and one accuracy per method and seed: the verdicts pair them by seed.
    for (const m of summary.methods) {
      expect(m.variance).toHaveLength(2);
      expect(m.total_variance).toHaveLength(2);
      for (const v of m.total_variance) expect(v).toBeGreaterThan(0);
      expect(m.accuracy).toHaveLength(2);
    }
    // MIRROR is judged against the independent pair (the same masked rows per step), not standard.
    expect(run.stdout).toMatch(/\nvariance reduced \(ppots\+mirror vs pair\): [^\n]*: too small — /);
    expect(run.stdout).not.toMatch(/mirror vs standard/);
    expect(run.stdout).toMatch(/\nvariance decomposition: [^\n]*: too small — /);
  });

  test('gap runs end to end: norm ratios and accuracy per mode', async () => {
    const out = tempDir();
    const run = await runCli(['lab', 'gap', ...GAP_RUN, '-o', out]);
    expect(run.stderr).toContain('report.html');
    expect(run.code).toBe(0);
    // Norm mismatch; two aligned modes against raw h; raw h and the two against the no-latent control.
    const summary = expectReport(out, run.stdout, 6, 3) as unknown as {
      seeds: { seed: number; modes: { mode: string; fed_norm_ratio: number; context_loss: boolean }[] }[];
    };
    expect(summary.seeds.map((s) => s.seed)).toEqual([0, 1, 2]);
    for (const s of summary.seeds) {
      expect(s.modes.map((m) => m.mode)).toEqual(['none', 'raw', 'norm-matched', 'pca']);
      expect(s.modes[0]?.fed_norm_ratio).toBe(0);
      expect(s.modes[2]?.fed_norm_ratio).toBeCloseTo(1, 3);
      // The default context level: the aligned modes get the context-level loss, raw h and none do not.
      expect(s.modes.map((m) => m.context_loss)).toEqual([false, false, true, true]);
    }
  });

  test('gap at its documented minimum (a tiny model) decides every claim with an interval over 3 seeds', async () => {
    const out = tempDir();
    const args = [
      '--width',
      '8',
      '--heads',
      '2',
      '--depth',
      '1',
      '--batch',
      '8',
      '--pca-k',
      '2',
      '--warmup',
      '2',
    ];
    const sizes = [
      '--base-steps',
      '300',
      '--latent-steps',
      '150',
      '--eval-examples',
      '200',
      '--log-every',
      '50',
    ];
    const run = await runCli(['lab', 'gap', ...args, ...sizes, '-o', out]);
    expect(run.code).toBe(0);
    const { verdicts } = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      verdicts: SavedVerdict[];
    };
    expect(verdicts).toHaveLength(6);
    for (const v of verdicts) {
      expect(['held', 'not_held', 'inconclusive']).toContain(v.status);
      expect(v).not.toHaveProperty('why');
      expect(v.seeds).toBe(3);
      const [lo, hi] = v.ci as [number, number];
      expect(lo).toBeLessThanOrEqual(v.effect as number);
      expect(hi).toBeGreaterThanOrEqual(v.effect as number);
    }
    const lines = run.stdout.trim().split('\n');
    expect(lines).toHaveLength(6);
    for (const line of lines)
      expect(line).toMatch(/: (held|not held|inconclusive) — effect [+-]\d.* over 3 seeds \(/);
  }, 180_000);

  test('dir runs end to end: BT and DIR per seed, and a rerun resumes instead of retraining', async () => {
    const out = tempDir();
    const first = await runCli(['lab', 'dir', ...DIR_RUN, '-o', out]);
    expect(first.stderr).toContain('report.html');
    expect(first.code).toBe(0);
    const summary = expectReport(out, first.stdout, 3, 3) as unknown as {
      verdicts: SavedVerdict[];
      seeds: { seed: number; arms: { method: string; balanced_accuracy: number; mi: object }[] }[];
    };
    expect(summary.verdicts.map((v) => v.claim)).toEqual([
      'DIR keeps accuracy on bias-balanced pairs at least as well as BT',
      'DIR lowers the MI between its representation and length',
      'DIR lowers the MI between its representation and format',
    ]);
    expect(summary.verdicts[0]?.why).toBe(
      'below the documented minimum: --steps 10 < 150, --eval-pairs 32 < 256 (docs/lab.md)',
    );
    for (const s of summary.seeds) {
      expect(s.arms.map((a) => a.method)).toEqual(['bt', 'dir']);
      for (const a of s.arms) {
        expect(a.balanced_accuracy).toBeGreaterThanOrEqual(0);
        expect(a.balanced_accuracy).toBeLessThanOrEqual(1);
        expect(Object.keys(a.mi)).toEqual(['length', 'format']);
      }
    }
    const summaryText = readFileSync(join(out, 'summary.json'), 'utf8');
    const metrics = readJsonl(join(out, 'metrics.jsonl')) as { run: string; step: number }[];
    expect(metrics.filter((m) => m.run === 'dir-s1').map((m) => m.step)).toEqual([0, 5, 9]);
    // Finished runs are read back: the same report, no step trained again.
    const second = await runCli(['lab', 'dir', ...DIR_RUN, '-o', out]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    expect(readJsonl(join(out, 'metrics.jsonl'))).toEqual(metrics);
    expect(readFileSync(join(out, 'summary.json'), 'utf8')).toBe(summaryText);
    // A run whose result is gone trains again, to the same numbers.
    rmSync(join(out, 'runs', 'dir-s1.result.json'));
    const third = await runCli(['lab', 'dir', ...DIR_RUN, '-o', out]);
    expect(third.stdout).toBe(first.stdout);
    expect(readJsonl(join(out, 'metrics.jsonl'))).toEqual(metrics);
  });

  test('dir at its documented minimum (a tiny model) decides every claim with an interval over 3 seeds', async () => {
    const out = tempDir();
    const tiny = ['--width', '8', '--heads', '2', '--depth', '1', '--q-hidden', '8', '--batch', '8'];
    const sizes = ['--steps', '150', '--eval-pairs', '256', '--refit-steps', '20', '--log-every', '50'];
    const run = await runCli(['lab', 'dir', ...tiny, ...sizes, '-o', out]);
    expect(run.code).toBe(0);
    const { verdicts } = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')) as {
      verdicts: SavedVerdict[];
    };
    expect(verdicts).toHaveLength(3);
    for (const v of verdicts) {
      expect(['held', 'not_held', 'inconclusive']).toContain(v.status);
      expect(v).not.toHaveProperty('why');
      expect(v.seeds).toBe(3);
    }
    for (const line of run.stdout.trim().split('\n'))
      expect(line).toMatch(/: (held|not held|inconclusive) — effect [+-]\d.* over 3 seeds \(/);
  }, 180_000);

  test('rlvr runs end to end: every rollout scored or recorded, rewards in [0, 1]; a rerun trains no step twice', async () => {
    const out = tempDir();
    const first = await runCli(['lab', 'rlvr', ...RLVR_RUN, '-o', out]);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('rewardkit lab rlvr: 12 RL steps trained, 0 read back; report');
    const summary = expectReport(out, first.stdout, 5, 2) as unknown as {
      runs: { run: string; failures: unknown[] }[];
    };
    expect(summary.runs.map((r) => r.run)).toEqual([
      'grpo-verifier-s0',
      'etr-verifier-s0',
      'grpo-verifier-s1',
      'etr-verifier-s1',
    ]);
    const rl = readJsonl(join(out, 'metrics.jsonl')).filter((m) => m.phase === 'rl');
    expect(rl).toHaveLength(12);
    const failures = summary.runs.reduce((n, r) => n + r.failures.length, 0);
    let failed = 0;
    for (const m of rl) {
      // 2 prompts × 4 samples: each scored through the spec or recorded as failed.
      expect((m.scored as number) + (m.failed as number)).toBe(8);
      failed += m.failed as number;
      expect(m.mean_reward).toBeGreaterThanOrEqual(0);
      expect(m.mean_reward).toBeLessThanOrEqual(1);
      expect(m.hack_rate).toBeGreaterThanOrEqual(0);
      expect(m.hack_rate).toBeLessThanOrEqual(1);
    }
    expect(failed).toBe(failures);
    // A rerun into the same folder reads every run back; a run whose result is gone trains again,
    // to the same numbers.
    const second = await runCli(['lab', 'rlvr', ...RLVR_RUN, '-o', out]);
    expect(second.stderr).toContain('0 RL steps trained, 12 read back');
    expect(second.stdout).toBe(first.stdout);
    rmSync(join(out, 'runs', 'etr-verifier-s1.result.json'));
    const third = await runCli(['lab', 'rlvr', ...RLVR_RUN, '-o', out]);
    expect(third.stderr).toContain('3 RL steps trained, 9 read back');
    // Wall-clock fields (*_ms, reward_share_*) are the only ones a retrained run may change.
    expect(
      readJsonl(join(out, 'metrics.jsonl'))
        .filter((m) => m.phase === 'rl')
        .map(untimedMetric),
    ).toEqual(rl.map(untimedMetric));
  }, 180_000);

  test('rlvr refuses a spec that cannot score the task before any work', async () => {
    const dir = tempDir();
    const spec = join(dir, 'wrong.yaml');
    writeFileSync(spec, 'sources:\n  - {kind: countdown, params: {extract: hash_line}}\n');
    const out = join(dir, 'never');
    const run = await runCli(['lab', 'rlvr', ...RLVR_RUN, '--spec', spec, '-o', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /--spec .*wrong\.yaml: scores the reference answer "#### \d+" of "add \d+\+\d+" as failed/,
    );
    expect(existsSync(out)).toBe(false);
  });

  test.each([
    [['rlvr', '--task', 'division'], '--task:'],
    [['rlvr', '--methods', 'grpo,ppo'], '--methods[1]:'],
    [['rlvr', '--reward', 'judge'], '--reward[0]:'],
    [['rlvr', '--reward-transport', 'grpc'], '--reward-transport:'],
    [['siamesenorm', '--heads', '3', '--width', '64'], '--heads: 3 does not divide --width 64'],
    [['siamesenorm', '--depths', '4,0'], '--depths[1]: must be at least 1'],
    [['siamesenorm', '--lrs', '0'], '--lrs[0]: must be > 0'],
    [['mdm', '--depth', '0'], '--depth: must be at least 1'],
    [['mdm', '--lr', '-1'], '--lr: must be > 0'],
    [['gap', '--lr', 'x'], '--lr:'],
    [['gap', '--seeds', '0,x'], '--seeds[1]:'],
    [['gap', '--context-level', 'raw'], '--context-level:'],
    [['dir', '--attributes', 'length,verbosity'], '--attributes[1]:'],
    [['dir', '--bias', '1.5'], '--bias: must be in [0, 1]'],
    [['dir', '--lambda', '-1'], '--lambda: must be at least 0'],
    [['dir', '--q-steps', '0'], '--q-steps: must be at least 1'],
    [['dir', '--no-such-flag'], "unknown option '--no-such-flag'"],
    [['siamesenorm', '--no-such-flag'], "unknown option '--no-such-flag'"],
  ])('bad input fails before any work, naming the flag: %j', async (args, message) => {
    const out = join(tempDir(), 'never');
    const run = await runCli(['lab', ...args, '-o', out]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
    expect(existsSync(out)).toBe(false);
  });
});
