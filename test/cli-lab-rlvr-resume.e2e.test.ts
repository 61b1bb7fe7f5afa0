import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { untimedMetric } from '../src/lab/test-utils/untimed-metric.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';

const TINY = [
  '--seeds',
  '0',
  '--methods',
  'grpo',
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
  '--prompts',
  '2',
  '--group',
  '4',
  '--eval-examples',
  '10',
  '--eval-every',
  '3',
  '--no-progress',
];

const rlLines = (out: string) => readJsonl(join(out, 'metrics.jsonl')).filter((m) => m.phase === 'rl');

describe('rewardkit lab rlvr: kill and resume, reward transports', () => {
  test('SIGKILL mid-RL after a checkpoint, then the same command: no step repeats, and the result is the uninterrupted run’s', async () => {
    const run = [...TINY, '--rl-steps', '24', '--checkpoint-every', '2'];
    const whole = tempDir();
    const straight = await runCli(['lab', 'rlvr', ...run, '-o', whole]);
    expect(straight.code).toBe(0);

    const out = tempDir();
    const checkpoint = join(out, 'runs', 'grpo-verifier-s0.ckpt.json');
    let sawCheckpoint = false;
    const killed = await runCli(['lab', 'rlvr', ...run, '-o', out], {
      onSpawn: (kill) => {
        const poll = setInterval(() => {
          if (!existsSync(checkpoint)) return;
          sawCheckpoint = true;
          clearInterval(poll);
          kill('SIGKILL');
        }, 20);
      },
    });
    expect(sawCheckpoint).toBe(true);
    expect(killed.signal).toBe('SIGKILL');
    expect(existsSync(join(out, 'runs', 'grpo-verifier-s0.result.json'))).toBe(false);
    const from = (JSON.parse(readFileSync(checkpoint, 'utf8')) as { extra: { step: number } }).extra.step;
    expect(from).toBeGreaterThan(0);
    expect(from).toBeLessThan(24);

    const resumed = await runCli(['lab', 'rlvr', ...run, '-o', out]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`${24 - from} RL steps trained, ${from} read back`);
    expect(existsSync(checkpoint)).toBe(false);
    const lines = rlLines(out);
    // Continuous: every (run, step) once, in order.
    expect(lines.map((m) => `${m.run}:${m.step}`)).toEqual(
      Array.from({ length: 24 }, (_, s) => `grpo-verifier-s0:${s}`),
    );
    // Seeded streams per step and an exact checkpoint: the same numbers as without the kill.
    expect(lines.map(untimedMetric)).toEqual(rlLines(whole).map(untimedMetric));
    expect(resumed.stdout).toBe(straight.stdout);
  }, 180_000);

  test('--reward-transport both scores every step both ways with no disagreement; http alone trains to the same numbers', async () => {
    const run = [...TINY, '--rl-steps', '4'];
    const local = tempDir();
    expect((await runCli(['lab', 'rlvr', ...run, '-o', local])).code).toBe(0);
    const both = tempDir();
    const checked = await runCli(['lab', 'rlvr', ...run, '--reward-transport', 'both', '-o', both]);
    expect(checked.code).toBe(0);
    for (const m of rlLines(both)) {
      expect(m).toMatchObject({ disagreements: 0, scored: 8, failed: 0 });
      for (const k of ['reward_share_in_process', 'reward_share_http']) {
        expect(m[k]).toBeGreaterThan(0);
        expect(m[k]).toBeLessThan(1);
      }
      expect(m.reward_ms_http as number).toBeLessThan(m.step_ms as number);
    }
    const summary = JSON.parse(readFileSync(join(both, 'summary.json'), 'utf8')) as {
      transport: { mode: string; disagreements: number; trains: string };
    };
    expect(summary.transport).toMatchObject({ mode: 'both', trains: 'in-process', disagreements: 0 });
    const strip = (m: Record<string, unknown>) => {
      const { disagreements: _d, ...rest } = untimedMetric(m);
      return rest;
    };
    expect(rlLines(both).map(strip)).toEqual(rlLines(local).map(untimedMetric));
    const http = tempDir();
    expect((await runCli(['lab', 'rlvr', ...run, '--reward-transport', 'http', '-o', http])).code).toBe(0);
    expect(rlLines(http).map(untimedMetric)).toEqual(rlLines(local).map(untimedMetric));
    expect(rlLines(http)[0]).not.toHaveProperty('reward_ms_in_process');
  }, 180_000);
});
