import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';
import { rolesOf, tracedCalls } from './traced-calls.js';

const server = scriptedServerPerTest();

const call = (name: string, args: unknown): ScriptRule => ({
  times: 1,
  reply: { content: '', toolCalls: [{ name, arguments: JSON.stringify(args) }] },
});

function setup(rows: unknown[]) {
  const dir = tempDir();
  const models = join(dir, 'models.yaml');
  writeFileSync(
    models,
    `models:\n  judge:\n    model: skill-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  const input = join(dir, 'rows.jsonl');
  writeFileSync(input, rows.map((r) => JSON.stringify(r)).join('\n'));
  return { models, input, out: join(dir, 'out.jsonl') };
}

describe('rewardkit judge skill_rm', () => {
  test('should score each response pointwise through the skill, the verifier run by the judge', async () => {
    const { models, input, out } = setup([
      {
        id: 'right',
        prompt: 'What is 6 times 7?',
        response: 'The answer is 42.',
        reference: '42',
        metadata: { label: 'SECRET' },
      },
      { id: 'wrong', prompt: 'What is 6 times 7?', response: 'It is 41', reference: '42' },
    ]);
    server.script(
      call('use_skill', { name: 'reward-judge', reason: 'math' }),
      call('run_resource', { id: 'math-verifier' }),
      call('final_answer', { score: 1, reason: 'matches the reference' }),
      call('use_skill', { name: 'reward-judge', reason: 'math' }),
      call('run_resource', { id: 'math-verifier' }),
      { times: 1, reply: { content: 'The verifier says 41 is wrong.\nScore: 0.1' } },
    );
    const run = await runCli([
      'judge',
      'skill_rm',
      '--models',
      models,
      '--model',
      'judge',
      '--benchmark-visible',
      '--concurrency',
      '1',
      '--input',
      input,
      '--output',
      out,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const [right, wrong] = readJsonl(out);
    expect(right).toMatchObject({ id: 'right', reward: 1 });
    expect(wrong).toMatchObject({ id: 'wrong', reward: 0.1 });
    const evidence = (wrong?.evidence as Array<Record<string, unknown>> | undefined)?.at(0);
    expect(evidence).toMatchObject({ source: 'skill_rm', usage: { calls: 3 }, detail: { route: 'text' } });
    expect(rolesOf(tracedCalls(evidence))).toEqual(['skill_rm_agent', 'skill_rm_agent', 'skill_rm_agent']);
    const verifierRun = String(server.requests[2]?.body.messages?.at(-1)?.content);
    expect(verifierRun).toContain('"favours":null');
    expect(verifierRun).toContain('the response passes');
    expect(JSON.stringify(server.requests.map((r) => r.body))).not.toContain('SECRET');
  });
});

describe('rewardkit judge pairwise --judge skill_rm', () => {
  test('should judge a pair in both orders and decide A by the reference match', async () => {
    const { models, input, out } = setup([
      {
        id: 'p1',
        prompt: 'What is 6 times 7?',
        first: 'The answer is 42.',
        second: 'It is 41',
        reference: '42',
      },
    ]);
    server.script(
      call('use_skill', { name: 'reward-judge' }),
      call('run_resource', { id: 'reference-match' }),
      call('final_answer', { verdict: 'A', reason: 'A matches 42' }),
      call('use_skill', { name: 'reward-judge' }),
      call('run_resource', { id: 'reference-match' }),
      call('final_answer', { verdict: 'B', reason: 'B matches 42' }),
    );
    const run = await runCli([
      'judge',
      'pairwise',
      '--judge',
      'skill_rm',
      '--benchmark-visible',
      '--models',
      models,
      '--model',
      'judge',
      '--input',
      input,
      '--output',
      out,
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toContain('1 rows, 1 ok, 0 failed');
    const [row] = readJsonl(out);
    expect(row).toMatchObject({
      id: 'p1',
      verdict: 'first',
      decided_by: 'reference-match',
      comparisons: [
        { order: 'forward', winner: 'first' },
        { order: 'backward', winner: 'first' },
      ],
      calls: 6,
    });
  });

  test('should refuse --benchmark-visible for another judge', async () => {
    const { models, input, out } = setup([{ id: 'p', prompt: 'q', first: 'a', second: 'b' }]);
    const run = await runCli([
      'judge',
      'pairwise',
      '--benchmark-visible',
      '--models',
      models,
      '--model',
      'judge',
      '-i',
      input,
      '-o',
      out,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--benchmark-visible applies to --judge skill_rm only');
  });
});
