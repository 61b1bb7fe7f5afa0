import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { deprecationLines, fileWithoutLatency } from './deprecated-names.js';
import { type RecordedRequest, type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';
import { rolesOf, tracedCalls } from './traced-calls.js';

const server = scriptedServerPerTest();

const textOf = (r: RecordedRequest) =>
  (r.body.messages ?? []).map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
const isRole = (r: RecordedRequest, phrase: string) => String(r.body.messages?.[0]?.content).includes(phrase);
const PROPOSER = 'You split an answer';
const CHECKER = 'You answer questions using only the documents';
const MATCHER = 'You decide whether a short answer to a question states the same fact';

/** The Proposer's claims for the answer that contains `marker`. */
const proposes = (marker: string, claims: Array<{ question: string; expected: string }>): ScriptRule => ({
  match: { role: 'user', contains: marker },
  reply: { content: JSON.stringify({ claims }) },
});
/** The Checker's answers when the documents contain `marker`. */
const checks = (marker: string, answers: Record<string, string>): ScriptRule => ({
  match: { role: 'user', contains: marker },
  reply: {
    content: JSON.stringify({
      items: Object.entries(answers).map(([id, answer]) => ({ id, evidence: `from ${marker}`, answer })),
    }),
  },
});

function workspace(): { dir: string; models: string } {
  const dir = tempDir();
  const models = join(dir, 'models.yaml');
  writeFileSync(
    models,
    ['proposer', 'checker', 'matcher']
      .map(
        (name) => `  ${name}:\n    model: ${name}-model\n    base_url: ${server.url}\n    max_retries: 0\n`,
      )
      .join('')
      .replace(/^/, 'models:\n'),
  );
  return { dir, models };
}

const rows = [
  {
    id: 'grounded',
    question: 'How big was Acme in 2023?',
    documents: [{ title: 'DOC-GROUNDED', text: 'Acme had 1200 staff and 40 offices in 2023.' }],
    answer: '<think>HIDDEN-THOUGHT</think>ANSWER-GROUNDED: Acme had 1,200 staff and 40 offices.',
  },
  {
    id: 'hallucinated',
    question: 'How big was Acme in 2023?',
    documents: ['DOC-HALLUCINATED Acme had 900 staff. Offices are not listed.'],
    answer: 'ANSWER-HALLUCINATED: Acme had 1,200 staff and 40 offices.',
  },
  { id: 'no-docs', question: 'How big was Acme?', documents: [], answer: 'ANSWER-NODOCS: 5 staff.' },
  '{"id": "bad-docs", "question": "q", "documents": [5], "answer": "a"}',
];
const staffClaims = [
  { question: 'How many staff did Acme have in 2023?', expected: '1,200' },
  { question: 'How many offices did Acme have in 2023?', expected: '40' },
];

function scriptRows(): void {
  server.script(
    proposes('ANSWER-GROUNDED', staffClaims),
    proposes('ANSWER-HALLUCINATED', staffClaims),
    checks('DOC-GROUNDED', { C1: '1200', C2: '40' }),
    checks('DOC-HALLUCINATED', { C1: '900', C2: 'cannot answer' }),
  );
}

describe('rewardkit judge claims --bench-rows (check claims is its old name)', () => {
  test('should write the same lines as check claims, which says once that it is deprecated', async () => {
    const { dir, models } = workspace();
    const input = join(dir, 'rag.jsonl');
    writeFileSync(input, `${rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`);
    scriptRows();
    const common = ['--models', models, '--proposer', 'proposer', '--checker', 'checker', '--input', input];
    const canonical = await runCli([
      'judge',
      'claims',
      '--bench-rows',
      ...common,
      '-o',
      join(dir, 'a.jsonl'),
    ]);
    const alias = await runCli(['check', 'claims', ...common, '-o', join(dir, 'b.jsonl')]);
    expect([canonical.code, alias.code]).toEqual([3, 3]);
    expect(canonical.stderr).toMatch(/judge claims: 4 rows, 2 ok, 2 failed, 0 skipped/);
    expect(canonical.stderr).toMatch(/rewardkit judge claims: 4 claims checked, 2 faults, 8 LLM calls/);
    expect(deprecationLines(canonical.stderr)).toEqual([]);
    expect(deprecationLines(alias.stderr)).toEqual([
      'rewardkit: warning: check claims is deprecated; use judge claims --bench-rows',
    ]);
    const lines = fileWithoutLatency(join(dir, 'a.jsonl')) as Array<{ id: string }>;
    expect(lines.map((line) => line.id)).toEqual(['grounded', 'hallucinated', 'no-docs', 'bad-docs']);
    expect(lines).toEqual(fileWithoutLatency(join(dir, 'b.jsonl')));
  });

  test('should list the one door in --help, and the old name as deprecated', async () => {
    const top = await runCli(['--help']);
    expect(top.stdout).toMatch(/\n {2}check +\(deprecated: use judge claims\s+--bench-rows\)/);
    const check = await runCli(['check', '--help']);
    expect(check.stdout).toMatch(/\n {2}claims \[options\] +\(deprecated: use judge claims\s+--bench-rows\)/);
    const help = await runCli(['judge', 'claims', '--help']);
    expect(help.stdout).toMatch(/--bench-rows +read the benchmark's own rows/);
    expect(help.stdout).toMatch(/The Proposer \(question \+ answer, never the documents\)/);
  });
});

describe('rewardkit check claims', () => {
  test('should check each RAG row with the three roles kept apart, record failures, and resume', async () => {
    const { dir, models } = workspace();
    const input = join(dir, 'rag.jsonl');
    writeFileSync(input, `${rows.map((r) => (typeof r === 'string' ? r : JSON.stringify(r))).join('\n')}\n`);
    scriptRows();
    const out = join(dir, 'out.jsonl');
    const args = ['check', 'claims', '--models', models, '--proposer', 'proposer', '--checker', 'checker'];
    const run = await runCli([...args, '--input', input, '--output', out]);
    expect(run.code).toBe(3);
    const results = readJsonl(out);
    expect(results.map((r) => [r.id, r.reward ?? null, r.verdict ?? null])).toEqual([
      ['grounded', 0, 'pass'],
      ['hallucinated', -1, 'fail'],
      ['no-docs', null, null],
      ['bad-docs', null, null],
    ]);
    expect(results[0]).toMatchObject({ faults: 0, supported: 2, think_dropped: true, calls: 4 });
    expect(results[1]).toMatchObject({ faults: 2, supported: 0 });
    expect((results[1]?.claims as Array<{ label: string }> | undefined)?.map((c) => c.label)).toEqual([
      'contradiction',
      'neutral',
    ]);
    expect(results[2]).toMatchObject({ stage: 'documents', calls: 0 });
    expect(String(results[2]?.error)).toMatch(/no documents/);
    expect(String(results[3]?.error)).toMatch(/rag\.jsonl:4: .*documents/);
    expect(run.stderr).toMatch(/check claims: 4 rows, 2 ok, 2 failed, 0 skipped/);
    expect(run.stderr).toMatch(/4 claims checked, 2 faults, 8 LLM calls \(2\.7 per answer\)/);

    // What each role saw: the Proposer no documents, the Checker no answer and no expected values.
    const proposer = server.requests.filter((r) => isRole(r, PROPOSER));
    const checker = server.requests.filter((r) => isRole(r, CHECKER));
    expect(proposer).toHaveLength(2);
    expect(checker).toHaveLength(6);
    expect(proposer.every((r) => r.body.model === 'proposer-model')).toBe(true);
    expect(checker.every((r) => r.body.model === 'checker-model')).toBe(true);
    for (const r of proposer) expect(textOf(r)).not.toMatch(/DOC-|HIDDEN-THOUGHT/);
    for (const r of checker) expect(textOf(r)).not.toMatch(/ANSWER-|1,200|HIDDEN-THOUGHT/);
    expect(server.requests.some((r) => textOf(r).includes('ANSWER-NODOCS'))).toBe(false);

    const rerun = await runCli([...args, '--input', input, '--output', out]);
    expect(rerun.stderr).toMatch(/4 rows, 0 ok, 0 failed, 4 skipped/);
    expect(server.requests).toHaveLength(8);
  });

  test('should match general claims with the matcher model and score them with a preset', async () => {
    const { dir, models } = workspace();
    const input = join(dir, 'rag.jsonl');
    writeFileSync(
      input,
      `${JSON.stringify({
        id: 'city',
        question: 'Where is Acme based?',
        documents: ['DOC-CITY Acme is headquartered in the French capital.'],
        answer: 'ANSWER-CITY: Acme is based in Paris, founded 1999.',
      })}\n`,
    );
    server.script(
      proposes('ANSWER-CITY', [
        { question: 'In which city is Acme based?', expected: 'Paris' },
        { question: 'In which year was Acme founded?', expected: '1999' },
      ]),
      {
        match: { role: 'system', contains: MATCHER },
        reply: { content: JSON.stringify({ reason: 'the French capital is Paris', equivalent: true }) },
      },
      checks('DOC-CITY', { C1: 'the French capital', C2: 'cannot answer' }),
    );
    const run = await runCli([
      'check',
      'claims',
      '--models',
      models,
      '-m',
      'checker',
      '--proposer',
      'proposer',
      '--matcher',
      'matcher',
      '--mode',
      'claims',
      '--aggregate',
      'ragas',
      '--input',
      input,
    ]);
    expect(run.code).toBe(0);
    // --aggregate is the old name of --reward (the spec's param): it still works, with a warning.
    expect(run.stderr).toContain('rewardkit: warning: --aggregate is deprecated; use --reward');
    const [result] = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(result).toMatchObject({ id: 'city', reward: 0.5, verdict: 'pass', aggregate: 'ragas', faults: 1 });
    const matcher = server.requests.filter((r) => isRole(r, MATCHER));
    expect(matcher).toHaveLength(1);
    expect(matcher[0]?.body.model).toBe('matcher-model');
    expect(textOf(matcher[0] as RecordedRequest)).not.toMatch(/DOC-CITY|ANSWER-CITY/);
  });

  test('should explain itself in --help and refuse to run without models for its roles', async () => {
    const help = await runCli(['check', 'claims', '--help']);
    expect(help.stdout).toMatch(/--proposer <name>[\s\S]*--reward <name>[\s\S]*never the documents/);
    expect(help.stdout).not.toContain('--aggregate');
    const bad = await runCli(['check', 'claims', '--aggregate', 'most', '--input', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--aggregate expects one of zero_tolerance, proportional/);
    const { dir, models } = workspace();
    writeFileSync(join(dir, 'in.jsonl'), '{"id": 1}\n');
    const run = await runCli(['check', 'claims', '--models', models, '--input', join(dir, 'in.jsonl')]);
    expect(run.code).toBe(2);
    // The spec's error for the same params (`judge claims` and a spec give it too), naming the flag.
    expect(run.stderr).toMatch(
      /--model: name the models: "model" for every role, or "proposer" and "checker"/,
    );
  });
});

describe('rewardkit score with a claims source', () => {
  test('should score RAG samples from metadata.documents, and fail a sample without documents', async () => {
    const { dir, models } = workspace();
    writeFileSync(
      join(dir, 'spec.yaml'),
      'sources:\n  - kind: claims\n    params: {proposer: proposer, checker: checker, reward: proportional, k: 3}\n',
    );
    const samples = rows.slice(0, 3).map((r) => {
      const row = r as { id: string; question: string; documents: unknown[]; answer: string };
      return {
        id: row.id,
        prompt: row.question,
        response: row.answer,
        metadata: { documents: row.documents },
      };
    });
    writeFileSync(join(dir, 'in.jsonl'), `${samples.map((s) => JSON.stringify(s)).join('\n')}\n`);
    scriptRows();
    const out = join(dir, 'out.jsonl');
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      models,
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      out,
    ]);
    expect(run.code).toBe(3);
    const results = readJsonl(out);
    expect(results.map((r) => [r.id, r.reward])).toEqual([
      ['grounded', 0],
      ['hallucinated', -0.2],
      ['no-docs', null],
    ]);
    const evidence = (i: number) => (results[i]?.evidence as Array<Record<string, unknown>> | undefined)?.[0];
    expect(evidence(1)).toMatchObject({ kind: 'claims', verdict: 'fail', usage: { calls: 4 } });
    expect(rolesOf(tracedCalls(evidence(1)))).toEqual(['proposer', 'checker', 'checker', 'checker']);
    expect(evidence(1)?.detail).toMatchObject({ claims: [{ verdict: 'fault' }, { verdict: 'fault' }] });
    expect(String(results[2]?.errors)).toMatch(/could not be made \(documents\): no documents/);
    for (const r of server.requests.filter((q) => isRole(q, CHECKER)))
      expect(textOf(r)).not.toMatch(/ANSWER-/);
  });
});
