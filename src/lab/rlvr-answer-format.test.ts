import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { policyShape, runRlvrExperiment } from './rlvr-experiment.js';
import { RLVR_DEFAULTS, rlvrOptionsSchema } from './rlvr-options.js';
import { probeSpec, rewardFromSpec, verifierSpecText } from './rlvr-rewards.js';
import { answerLine, goldAnswer, type RlvrTask, rlvrTasks } from './rlvr-tasks.js';
import { decodeChars, encodeChars, RLVR_VOCAB, rlvrVocab } from './rlvr-tokenizer.js';
import { loadTf } from './tf-runtime.js';

beforeAll(async () => {
  await loadTf();
});

const task = (kind: 'addition' | 'sorting', answerFormat: 'hash' | 'boxed') =>
  rlvrTasks(kind, 1, 5, { digits: 2, answerFormat })[0] as RlvrTask;

describe('answer formats', () => {
  test('#### keeps its ids and vocabulary; \\boxed{} adds its characters after them', () => {
    expect(RLVR_VOCAB).toBe(34);
    expect(rlvrVocab('hash')).toBe(RLVR_VOCAB);
    expect(rlvrVocab('boxed')).toBe(RLVR_VOCAB + 5);
    expect(encodeChars('#### 42')).toEqual([4, 4, 4, 4, 3, 14, 12]);
    const boxed = answerLine('1 2 3', 'boxed');
    expect(boxed).toBe('\\boxed{1 2 3}');
    expect(decodeChars(encodeChars(boxed))).toBe(boxed);
    expect(Math.max(...encodeChars('\\{}bx'))).toBe(rlvrVocab('boxed') - 1);
    expect(Math.min(...encodeChars('\\{}bx'))).toBe(RLVR_VOCAB);
  });

  test('a task carries its format; its gold answer is written in it', () => {
    const hash = task('addition', 'hash');
    const boxed = task('addition', 'boxed');
    expect(hash).not.toHaveProperty('answerFormat');
    expect({ ...boxed, answerFormat: undefined }).toEqual({ ...hash, answerFormat: undefined });
    expect(goldAnswer(hash)).toBe(`#### ${hash.reference}`);
    expect(goldAnswer(boxed)).toBe(`\\boxed{${boxed.reference}}`);
  });

  test('the policy has room for the longer \\boxed{} line', () => {
    const hash = policyShape(RLVR_DEFAULTS);
    const boxed = policyShape({ ...RLVR_DEFAULTS, answerFormat: 'boxed' });
    expect(boxed.completionLen - hash.completionLen).toBe('\\boxed{}'.length - '#### '.length);
    expect(boxed.config.vocab).toBe(rlvrVocab('boxed'));
  });

  test.each([
    ['addition', 'hash'],
    ['addition', 'boxed'],
    ['sorting', 'hash'],
    ['sorting', 'boxed'],
  ] as const)(
    '%s in %s: the built-in spec scores the gold answer 1 (the probe passes)',
    async (kind, format) => {
      const reward = rewardFromSpec(verifierSpecText(kind, undefined, { answerFormat: format }), 'built-in');
      try {
        await probeSpec(reward, task(kind, format), 'built-in');
      } finally {
        await reward.close();
      }
    },
  );
});

describe('the format reward, a regex source in the built-in spec', () => {
  const score = async (format: 'hash' | 'boxed', formatWeight: number, responses: string[]) => {
    const t = task('addition', format);
    const reward = rewardFromSpec(
      verifierSpecText('addition', undefined, { answerFormat: format, formatWeight }),
      'f',
    );
    try {
      const out = [];
      for (const r of responses) {
        const s = await reward.score(
          t,
          r.replace('R', t.reference).replace('W', String(Number(t.reference) + 1)),
          'x',
        );
        out.push('reward' in s ? s.reward : s.failed);
      }
      return out;
    } finally {
      await reward.close();
    }
  };

  test('only a correct answer in the format scores 1; the format alone earns its weight', async () => {
    expect(
      await score('boxed', 0.25, ['\\boxed{R}', '\\boxed{W}', 'so \\boxed{R} it is', 'so \\boxed{W}']),
    ).toEqual([1, 0.25, 0.75, 0]);
    expect(await score('hash', 0.25, ['#### R', '#### W', 'then #### R'])).toEqual([1, 0.25, 0.75]);
  });

  test('weight 0 is the check alone, as before the format reward', async () => {
    expect(verifierSpecText('addition')).toBe(verifierSpecText('addition', undefined, { formatWeight: 0 }));
    expect(await score('hash', 0, ['#### R', 'then #### R', '#### W'])).toEqual([1, 1, 0]);
  });
});

describe('bad combinations fail before any work', () => {
  const parse = (o: Record<string, unknown>) => rlvrOptionsSchema.safeParse({ ...RLVR_DEFAULTS, ...o });
  test.each([
    [{ answerFormat: 'boxed', task: 'countdown' }, /addition and sorting only/],
    [{ answerFormat: 'boxed', methods: ['grpo', 'afrl'] }, /afrl writes its own/],
    [{ formatWeight: 1 }, /below 1/],
    [{ formatWeight: -0.1 }, /0/],
    [{ answerFormat: 'latex' }, /hash|boxed/],
  ])('%j', (o, message) => {
    const parsed = parse(o);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues.map((i) => i.message).join('\n')).toMatch(message);
  });

  test('--format-weight with --spec: the format source belongs in that spec', async () => {
    const spec = join(mkdtempSync(join(tmpdir(), 'rlvr-format-')), 'mine.yaml');
    writeFileSync(spec, 'sources:\n  - {kind: math}\n');
    await expect(
      runRlvrExperiment({ ...RLVR_DEFAULTS, formatWeight: 0.2 }, mkdtempSync(join(tmpdir(), 'rlvr-f-')), {
        specFile: spec,
      }),
    ).rejects.toThrow(/put the format source in that spec/);
  });
});

describe('smoke: a \\boxed{} run with a format reward', () => {
  test('trains, scores every rollout in [0, 1], and evaluates held-out accuracy', async () => {
    const o = {
      ...RLVR_DEFAULTS,
      answerFormat: 'boxed' as const,
      formatWeight: 0.2,
      methods: ['grpo' as const],
      seeds: [0],
      width: 16,
      heads: 2,
      depth: 1,
      sftSteps: 10,
      sftBatch: 4,
      rlSteps: 2,
      prompts: 2,
      group: 3,
      evalExamples: 5,
      evalEvery: 2,
    };
    const run = await runRlvrExperiment(o, mkdtempSync(join(tmpdir(), 'rlvr-boxed-')));
    const rl = run.report.metrics.filter((m) => m.phase === 'rl');
    expect(rl).toHaveLength(2);
    for (const m of rl) {
      expect(m.scored).toBe(6);
      expect(m.mean_reward).toBeGreaterThanOrEqual(0);
      expect(m.mean_reward).toBeLessThanOrEqual(1);
    }
    expect(rl[1]?.heldout_accuracy).toBeGreaterThanOrEqual(0);
  }, 60_000);
});
