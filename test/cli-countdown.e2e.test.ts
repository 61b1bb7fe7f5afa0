import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';

// TinyZero's countdown rows as verl reads them: the ground truth {target, numbers} under
// reward_model, the model's answer in <answer> tags.
const verlRow = (id: string, response: string) =>
  JSON.stringify({
    id,
    data_source: 'countdown',
    prompt: [{ role: 'user', content: 'Using the numbers [3, 7, 25], create an equation that equals 46.' }],
    response,
    reward_model: { style: 'rule', ground_truth: { target: 46, numbers: [3, 7, 25] } },
  });

describe('rewardkit score with the countdown kind', () => {
  test('scores verl-layout countdown rows through a spec', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'spec.yaml'), 'sources:\n  - {kind: countdown, params: {format_score: 0.1}}\n');
    writeFileSync(
      join(dir, 'rows.jsonl'),
      [
        verlRow('right', '<think>25 + 21 = 46, 3*7 = 21</think><answer>25 + 3*7</answer>'),
        verlRow('wrong', '<answer>(25 - 7) * 3</answer>'),
        verlRow('enumerated', '<answer>46</answer><answer>25+3+7</answer>'),
        verlRow('none', 'The answer is 46.'),
      ].join('\n'),
    );
    const out = join(dir, 'out.jsonl');
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--format',
      'verl',
      '--input',
      join(dir, 'rows.jsonl'),
      '--output',
      out,
      '--store',
      'none',
    ]);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code).toBe(0);
    expect(Object.fromEntries(readJsonl(out).map((r) => [r.id, r.reward]))).toEqual({
      right: 1,
      wrong: 0.1,
      enumerated: 0.1,
      none: 0,
    });
  });

  test('the default preset routes data_source countdown to it, paying nothing for format', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'rows.jsonl'),
      [verlRow('right', '<answer>3*7+25</answer>'), verlRow('wrong', '<answer>(25 - 7) * 3</answer>')].join(
        '\n',
      ),
    );
    const out = join(dir, 'out.jsonl');
    const run = await runCli([
      'score',
      '--format',
      'verl',
      '--input',
      join(dir, 'rows.jsonl'),
      '--output',
      out,
      '--store',
      'none',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).not.toMatch(/unrouted|no route/i);
    const results = readJsonl(out);
    expect(Object.fromEntries(results.map((r) => [r.id, r.reward]))).toEqual({ right: 1, wrong: 0 });
    for (const result of results) {
      expect(result.routed_default).toBeUndefined();
      expect((result.evidence as { kind: string }[])[0]?.kind).toBe('countdown');
    }
  });
});
