import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { expectSelfContained } from '../src/view/test-utils/expect-self-contained.js';
import { runCli, tempDir } from './cli-harness.js';
import { refusingEndpoint, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();
const dir = tempDir();
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const jsonl = (rows: readonly object[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

// Responses of 5 to 64 words: a spec that pays for 30 words or more pays for length and nothing else.
const lengthInput = write(
  'lengths.jsonl',
  jsonl(
    Array.from({ length: 40 }, (_, i) => ({
      id: `l${i}`,
      data_source: i % 2 === 0 ? 'even' : 'odd',
      response: Array.from({ length: 5 + ((i * 37) % 60) }, () => 'w').join(' '),
    })),
  ),
);
const lengthSpec = write(
  'length.yaml',
  'name: long-enough\nsources:\n  - kind: length\n    params: {unit: words, min: 30}\n',
);

interface Audit {
  spec: string;
  samples: number;
  scored: number;
  failed: Array<{ id: string; reasons: string[] }>;
  attributes: Array<{
    name: string;
    spearman: { value: number | null; ci: [number, number] | null; reason: string | null };
    mi_method: string;
    by_source: Record<string, { n: number }>;
  }>;
  probes: Array<{ name: string; applied: number; moved_share: number | null; failed: number }>;
}
const readAudit = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Audit;

describe('rewardkit audit', { timeout: 120_000 }, () => {
  test('flags length in a length-check spec, with probes, per source, and an HTML report: exit 0', async () => {
    const output = join(dir, 'length.json');
    const report = join(dir, 'length.html');
    const run = await runCli([
      'audit',
      '--spec',
      lengthSpec,
      '-i',
      lengthInput,
      '-o',
      output,
      '--report',
      report,
    ]);
    expect(run.stderr).toMatch(/ASSOCIATED tokens: spearman \+0\.\d+ \[\+0\.\d+, \+\d\.\d+\]/);
    expect(run.code).toBe(0);
    const audit = readAudit(output);
    expect(audit).toMatchObject({ spec: 'long-enough', samples: 40, scored: 40, failed: [] });
    const tokens = audit.attributes.find((a) => a.name === 'tokens');
    expect(tokens?.spearman.ci?.[0]).toBeGreaterThan(0);
    expect(tokens?.mi_method).toBe('plug-in-miller-madow');
    expect(Object.keys(tokens?.by_source ?? {})).toEqual(['even', 'odd']);
    expect(audit.probes.map((p) => p.name)).toEqual([
      'length-padding',
      'format-inflation',
      'flattering-opener',
    ]);
    expect(audit.probes[0]?.moved_share).toBeGreaterThan(0);
    const html = readFileSync(report, 'utf8');
    expectSelfContained(html);
    expect(html).toContain('tokens vs reward');
    expect(html).toContain('<table id="probes">');
  });

  test('a finished audit is stored: runs list shows its kind and headline, runs show writes its report', async () => {
    const store = join(dir, 'audit-store.sqlite');
    const report = join(dir, 'stored.html');
    const run = await runCli(
      ['audit', '--spec', lengthSpec, '-i', lengthInput, '-o', join(dir, 'stored.json')],
      {
        env: { REWARDKIT_STORE: store },
      },
    );
    expect(run.code).toBe(0);
    const runId = /rewardkit audit: run (run-\S+)/.exec(run.stderr)?.[1];
    expect(runId).toBeDefined();
    const listed = await runCli(['runs', 'list', '--store', store]);
    expect(listed.stdout).toMatch(
      new RegExp(
        `^${runId} +finished +long-enough .*kind=audit {2}\\d+ of \\d+ measured attributes go with the reward \\(tokens.*; 40 of 40 scored$`,
        'm',
      ),
    );
    const shown = await runCli(['runs', 'show', runId as string, '--store', store, '--report', report]);
    expect(shown.code).toBe(0);
    const html = readFileSync(report, 'utf8');
    expectSelfContained(html);
    expect(html).toContain('tokens vs reward');
  });

  test('some failed scorings: recorded with reasons, left out, exit 3; every scoring failed: exit 1', async () => {
    const mixed = write(
      'mixed.jsonl',
      jsonl(
        Array.from({ length: 14 }, (_, i) => ({
          id: `m${i}`,
          prompt: `What is ${i} + ${i}?`,
          response: `#### ${i < 7 ? 2 * i : 2 * i + 1}`,
          ...(i < 12 && { reference: String(2 * i) }),
        })),
      ),
    );
    const output = join(dir, 'mixed.json');
    const some = await runCli(['audit', '-s', 'math', '-i', mixed, '-o', output, '--probes', 'none']);
    expect(some.code).toBe(3);
    const audit = readAudit(output);
    expect(audit).toMatchObject({ samples: 14, scored: 12, probes: [] });
    expect(audit.failed.map((f) => f.id)).toEqual(['m12', 'm13']);
    expect(audit.failed[0]?.reasons[0]).toMatch(/no "reference"/);

    const none = write(
      'none.jsonl',
      jsonl([
        { id: 'a', response: '#### 2' },
        { id: 'b', response: '#### 4' },
      ]),
    );
    const all = await runCli(['audit', '-s', 'math', '-i', none, '-o', join(dir, 'none.json')]);
    expect(all.code).toBe(1);
    expect(readAudit(join(dir, 'none.json'))).toMatchObject({
      scored: 0,
      failed: [{ id: 'a' }, { id: 'b' }],
    });
    expect(all.stderr).toContain('0 of 2 scored, 2 failed');
  });

  test('refuses a malformed row by file:line, an unknown probe, and --spec with --judge, before scoring: exit 2', async () => {
    const bad = write('bad.jsonl', '{"id": "a", "response": "1"}\n{"id": "b"}\n');
    const run = await runCli(['audit', '-s', 'math', '-i', bad, '-o', join(dir, 'bad.json')]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${bad}:2`);
    expect(existsSync(join(dir, 'bad.json'))).toBe(false);
    const probe = await runCli([
      'audit',
      '-s',
      'math',
      '-i',
      lengthInput,
      '-o',
      join(dir, 'p.json'),
      '--probes',
      'nope',
    ]);
    expect(probe.code).toBe(2);
    expect(probe.stderr).toMatch(/--probes: unknown exploit "nope"/);
    const both = await runCli([
      'audit',
      '-s',
      'math',
      '--judge',
      'genrm',
      '-i',
      lengthInput,
      '-o',
      join(dir, 'b.json'),
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/exactly one of --spec/);
  });

  test('--judge: a judge that always prefers the first answer shows position bias', async () => {
    const models = write(
      'models.yaml',
      `models:\n  judge:\n    model: scripted\n    base_url: ${server.url}\n    max_retries: 0\n`,
    );
    const pairs = write(
      'pairs.jsonl',
      jsonl(
        Array.from({ length: 30 }, (_, i) => ({
          id: `p${i}`,
          prompt: `Question ${i}?`,
          chosen: `Right answer ${i}.`,
          rejected: `Wrong answer ${i}, at some length.`,
        })),
      ),
    );
    server.script({
      reply: { content: JSON.stringify({ principles: ['p'], critique: 'c', score_1: 9, score_2: 3 }) },
    });
    const output = join(dir, 'judge.json');
    const run = await runCli([
      'audit',
      ...['--judge', 'genrm', '--model', 'judge', '--models', models],
      ...['-i', pairs, '-o', output],
    ]);
    expect(run.code).toBe(0);
    const audit = readAudit(output);
    expect(audit).toMatchObject({ spec: 'judge:genrm', samples: 30, scored: 30, probes: [] });
    expect(audit.attributes.map((a) => a.name)).toEqual([
      'position',
      'length_diff_chars',
      'length_diff_tokens',
    ]);
    // Picks the better answer exactly when it stood first: a perfect negative association with its position.
    expect(audit.attributes[0]?.spearman.value).toBeCloseTo(-1, 12);
    expect(server.requests).toHaveLength(30);
  });

  test('a dead backend stops the run through the circuit breaker: exit 4, no report', async () => {
    const refused = await refusingEndpoint();
    const models = write(
      'dead.yaml',
      `models:\n  judge:\n    model: judge\n    base_url: ${refused}\n    max_retries: 0\n`,
    );
    const spec = write(
      'judged.yaml',
      'sources:\n  - kind: genrm\n    params:\n      model: judge\n      reasks: 0\n',
    );
    const judged = write(
      'judged.jsonl',
      jsonl(
        Array.from({ length: 12 }, (_, i) => ({
          id: `j${i}`,
          prompt: `Q${i}?`,
          response: `A${i}.`,
          reference: `R${i}.`,
        })),
      ),
    );
    const output = join(dir, 'dead.json');
    const run = await runCli([
      'audit',
      ...['-s', spec, '--models', models, '-i', judged, '-o', output],
      ...['--max-consecutive-failures', '3', '--concurrency', '1'],
    ]);
    expect(run.code).toBe(4);
    expect(run.stderr).toMatch(/rewardkit: stopped: the backend is down: 3 calls in a row failed/);
    expect(run.stderr).toMatch(/Nothing is written \(an audit needs every row\)/);
    expect(run.stderr).not.toMatch(/internal error/);
    expect(existsSync(output)).toBe(false);
  });
});
