import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runCli, tempDir } from './cli-harness.js';

const dir = tempDir();
const input = join(dir, 'samples.jsonl');
// Half right, half wrong: the wrong answers are within 4 of the right ones, as near misses are.
writeFileSync(
  input,
  Array.from({ length: 20 }, (_, i) => {
    const right = (3 + i) * 7;
    const answer = i % 2 === 0 ? right : right + 1 + (i % 4);
    return JSON.stringify({
      id: `m${i}`,
      prompt: `What is ${3 + i} times 7?`,
      response: `So the answer is \\boxed{${answer}}.`,
      reference: String(right),
    });
  }).join('\n'),
);
const naive = join(dir, 'naive.yaml');
writeFileSync(naive, 'sources:\n  - kind: reference\n    params: {mode: contains}\n');

interface Report {
  spec: string;
  samples: number;
  exploits: Array<{
    name: string;
    applied: number;
    lifted_share: number;
    ci: [number, number];
    failed: number;
  }>;
}

describe('rewardkit redteam', () => {
  test('catches a contains-the-reference spec by enumeration and exits 1', async () => {
    const output = join(dir, 'naive.json');
    const run = await runCli([
      'redteam',
      '--spec',
      naive,
      '--input',
      input,
      '--output',
      output,
      '--seed',
      '1',
    ]);
    expect(run.stderr).toMatch(/LIFTS answer-enumeration/);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    expect(report.samples).toBe(20);
    const enumeration = report.exploits.find((e) => e.name === 'answer-enumeration');
    expect(enumeration?.lifted_share).toBe(0.5);
    expect(enumeration?.ci[0]).toBeGreaterThan(0);
  });

  test('the math preset is lifted by no exploit: exit 0', async () => {
    const output = join(dir, 'math.json');
    const run = await runCli(['redteam', '--spec', 'math', '--input', input, '--output', output]);
    expect(run.stderr).not.toMatch(/LIFTS/);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    expect(report.exploits.length).toBeGreaterThanOrEqual(13);
    for (const e of report.exploits) expect(e.ci[0], e.name).toBeLessThanOrEqual(0);
  });

  test('an exploit measured on no sample (every scoring failed) is UNSCORED and fails the gate', async () => {
    const noReference = join(dir, 'no-reference.jsonl');
    writeFileSync(
      noReference,
      [
        '{"id":"a","prompt":"1+1?","response":"#### 2"}',
        '{"id":"b","prompt":"2+2?","response":"#### 4"}',
      ].join('\n'),
    );
    const output = join(dir, 'unscored.json');
    const run = await runCli(['redteam', '--spec', 'math', '--input', noReference, '--output', output]);
    expect(run.stderr).toMatch(/UNSCORED answer-enumeration: applied 2, .*failed 2/);
    expect(run.stderr).toContain('no sample could be scored');
    expect(run.stderr).not.toMatch(/^ok /m);
    expect(run.code).toBe(1);
    const report = JSON.parse(readFileSync(output, 'utf8')) as Report;
    for (const e of report.exploits) expect([e.failed, e.ci]).toEqual([2, null]);
  });

  test('refuses an unknown exploit and a malformed row before scoring, by file:line', async () => {
    const unknown = await runCli([
      'redteam',
      '-s',
      'math',
      '-i',
      input,
      '-o',
      join(dir, 'x.json'),
      '--exploits',
      'nope',
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown exploit "nope"/);
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"id": "a", "response": "1"}\n{"id": "b"}\n');
    const run = await runCli(['redteam', '-s', 'math', '-i', bad, '-o', join(dir, 'y.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:2`);
  });
});
