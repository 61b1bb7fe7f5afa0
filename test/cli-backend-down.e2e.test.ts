import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type CliRun, readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import {
  refusingEndpoint,
  type ScriptedOpenAIServer,
  startScriptedOpenAIServer,
} from './scripted-openai-server.js';

/**
 * Every command that calls a model, against a backend that answers nothing but errors: a scripted
 * server that answers every request 500, and an endpoint that refuses connections. With the
 * circuit breaker off, every sample whose judge never answered is counted failed and the exit code
 * says so (3, or 1 where the command produces one artefact); with it on, the command stops with
 * exit 4 and one line naming the endpoint and the last error.
 */

const jsonl = (dir: string, name: string, rows: unknown[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
  return path;
};

interface Workspace {
  dir: string;
  models: string;
  index: string;
}

interface CommandCase {
  name: string;
  /** The command line, writing its output under `out`. */
  args: (w: Workspace, out: string) => string[];
  /** What the command's own summary says when every row failed (breaker off). */
  failed: (run: CliRun, out: string) => void;
  /** The exit code when every call failed and the breaker is off. */
  code: number;
}

const PAIRS = Array.from({ length: 6 }, (_, i) => ({
  id: `p${i}`,
  prompt: `PAIR-${i} write a line`,
  first: 'ONE',
  second: 'TWO',
}));
const SAMPLES = Array.from({ length: 6 }, (_, i) => ({
  id: `s${i}`,
  prompt: `Question ${i}?`,
  response: `Answer ${i}.`,
  reference: `Answer ${i}.`,
}));
const rowsLine = (command: string, rows: number) =>
  new RegExp(`rewardkit ${command}: ${rows} rows, 0 ok, ${rows} failed, 0 skipped`);

const CASES: CommandCase[] = [
  {
    name: 'score (a spec with a judge source)',
    args: (w, out) => [
      'score',
      '--spec',
      jsonl(w.dir, 'spec.json', [
        { name: 'judged', sources: [{ kind: 'genrm', params: { model: 'judge' } }] },
      ]),
      '--models',
      w.models,
      '-i',
      jsonl(w.dir, 'samples.jsonl', SAMPLES),
      '-o',
      join(out, 'scored.jsonl'),
      '--no-progress',
    ],
    failed: (run, out) => {
      expect(run.stdout).toMatch(/scored {3}0\n/);
      expect(run.stdout).toMatch(/failed {3}6 /);
      expect(readJsonl(join(out, 'scored.jsonl')).every((r) => r.status === 'failed')).toBe(true);
    },
    code: 3,
  },
  {
    name: 'judge <kind>',
    args: (w, out) => [
      'judge',
      'genrm',
      '--models',
      w.models,
      '--model',
      'judge',
      '-i',
      jsonl(w.dir, 'samples.jsonl', SAMPLES),
      '-o',
      join(out, 'judged.jsonl'),
      '--no-progress',
    ],
    failed: (run) => expect(run.stdout).toMatch(/failed {3}6 /),
    code: 3,
  },
  {
    name: 'judge pairwise',
    args: (w, out) => [
      'judge',
      'pairwise',
      '--models',
      w.models,
      '-m',
      'judge',
      '-i',
      jsonl(w.dir, 'pairs.jsonl', PAIRS),
      '-o',
      join(out, 'pairs.jsonl'),
    ],
    failed: (run) => expect(run.stderr).toMatch(rowsLine('judge pairwise', 6)),
    code: 3,
  },
  {
    name: 'judge pointwise',
    args: (w, out) => [
      'judge',
      'pointwise',
      '--models',
      w.models,
      '--model',
      'judge',
      '--rubrics',
      join(repoRoot, 'examples/medical-rubrics.jsonl'),
      '-i',
      join(repoRoot, 'examples/medical-rows.jsonl'),
      '-o',
      join(out, 'pointwise.jsonl'),
    ],
    failed: (run) => expect(run.stderr).toMatch(/rewardkit judge pointwise: 3 rows, 0 ok, 3 failed/),
    code: 3,
  },
  {
    name: 'judge tool-plan',
    args: (w, out) => [
      'judge',
      'tool-plan',
      '--models',
      w.models,
      '--model',
      'judge',
      '-i',
      join(repoRoot, 'examples/atp-rows.jsonl'),
      '-o',
      join(out, 'plans.jsonl'),
    ],
    failed: (run) => expect(run.stderr).toMatch(/rewardkit judge tool-plan: (\d+) rows, 0 ok, \1 failed/),
    code: 3,
  },
  {
    name: 'check claims',
    args: (w, out) => [
      'check',
      'claims',
      '--models',
      w.models,
      '--proposer',
      'judge',
      '--checker',
      'judge',
      '-i',
      jsonl(
        w.dir,
        'rag.jsonl',
        Array.from({ length: 6 }, (_, i) => ({
          id: `r${i}`,
          question: `How many staff? ${i}`,
          documents: ['Acme had 1,200 staff.'],
          answer: 'Acme had 1,200 staff.',
        })),
      ),
      '-o',
      join(out, 'claims.jsonl'),
    ],
    failed: (run) => expect(run.stderr).toMatch(rowsLine('check claims', 6)),
    code: 3,
  },
  {
    name: 'evpv score',
    args: (w, out) => [
      'evpv',
      'score',
      '--models',
      w.models,
      '-m',
      'judge',
      '-i',
      jsonl(
        w.dir,
        'problems.jsonl',
        readFileSync(join(repoRoot, 'examples/evpv/symbolic-candidates.jsonl'), 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .slice(0, 4)
          .map((line) => JSON.parse(line)),
      ),
      '-o',
      join(out, 'evpv.jsonl'),
    ],
    failed: (run) => expect(run.stderr).toMatch(rowsLine('evpv score', 4)),
    code: 3,
  },
  {
    name: 'evpv corruption (LLM auditor)',
    args: (w, out) => [
      'evpv',
      'corruption',
      '--models',
      w.models,
      '--auditor',
      'judge',
      '--ratios',
      '0',
      '--trials',
      '1',
      '-i',
      jsonl(
        w.dir,
        'study.jsonl',
        readFileSync(join(repoRoot, 'examples/evpv/symbolic-candidates.jsonl'), 'utf8')
          .split('\n')
          .filter((line) => line.trim() !== '')
          .slice(0, 3)
          .map((line) => JSON.parse(line)),
      ),
      '-o',
      join(out, 'curve.json'),
    ],
    failed: (run) => expect(run.stderr).toMatch(/\d+ audit\(s\) got no readable answer from the auditor/),
    code: 3,
  },
  {
    name: 'bench (pairwise judge)',
    args: (w, out) => [
      'bench',
      '--dataset',
      'pairwise',
      '--input',
      jsonl(
        w.dir,
        'bench.jsonl',
        PAIRS.map(({ id, prompt }) => ({ id, prompt, chosen: 'ONE', rejected: 'TWO' })),
      ),
      '--models',
      w.models,
      '--model',
      'judge',
      '--output',
      join(out, 'bench.jsonl'),
      '--reasks',
      '0',
    ],
    failed: (run) =>
      expect(run.stdout).toMatch(/6 items judged, 0 failed; 6 of the judged got no readable verdict/),
    code: 3,
  },
  {
    name: 'advantages --method brpo',
    args: (w) => [
      'advantages',
      '--method',
      'brpo',
      '--models',
      w.models,
      '--judge',
      'judge',
      '-i',
      jsonl(
        w.dir,
        'groups.jsonl',
        Array.from({ length: 4 }, (_, i) => ({
          group: `g${i}`,
          prompt: 'Say hi.',
          responses: ['hi there', 'hello', 'hey'],
        })),
      ),
      '--store',
      'none',
    ],
    failed: (run) =>
      expect(
        run.stdout
          .trim()
          .split('\n')
          .every((line) => JSON.parse(line).errors !== undefined),
      ).toBe(true),
    code: 3,
  },
  {
    name: 'rubrics generate',
    args: (w, out) => [
      'rubrics',
      'generate',
      '--models',
      w.models,
      '--answerer',
      'judge',
      '--writer',
      'judge',
      '-i',
      jsonl(
        w.dir,
        'queries.jsonl',
        Array.from({ length: 4 }, (_, i) => ({ id: `q${i}`, query: `Is ${i} safe?` })),
      ),
      '-o',
      join(out, 'rubrics.jsonl'),
    ],
    failed: (run) => expect(run.stderr).toMatch(/rubrics: 0 written \(0 need review\), 4 failed/),
    code: 3,
  },
  {
    name: 'rubrics evolve',
    args: (w, out) => [
      'rubrics',
      'evolve',
      '--models',
      w.models,
      '--judge',
      'judge',
      '--mutator',
      'judge',
      '--labelled',
      jsonl(
        w.dir,
        'labelled.jsonl',
        PAIRS.map(({ first, second, ...p }) => ({ ...p, chosen: first, rejected: second })),
      ),
      '--held-out',
      '0',
      '--generations',
      '1',
      '--out',
      join(out, 'evolution'),
    ],
    // Every pair failed, none counted right or wrong: the fitness measured nothing.
    failed: (run) =>
      expect(JSON.parse(run.stdout).train.seed).toEqual({ right: 0, wrong: 0, ties: 0, failed: 6 }),
    code: 3,
  },
  {
    name: 'selfplay',
    args: (w, out) => [
      'selfplay',
      '--seeds',
      join(repoRoot, 'examples/selfplay/seeds.jsonl'),
      '--corpus',
      w.index,
      '--models',
      w.models,
      '--proposer',
      'judge',
      '--judge',
      'judge',
      '--rollouts',
      '1',
      '-o',
      join(out, 'ssp'),
    ],
    failed: (run) => expect(run.stderr).toMatch(/: 0 verified, 0 rejected, [1-9]\d* failed/),
    code: 3,
  },
  {
    name: 'skill evolve',
    args: (w, out) => [
      'skill',
      'evolve',
      '--skill',
      w.dir,
      '--traces',
      jsonl(
        w.dir,
        'traces.jsonl',
        Array.from({ length: 4 }, (_, i) => ({
          id: `t${i}`,
          task: `Task ${i}`,
          transcript: 'answered 3',
          outcome: { pass: false },
          reference: '3000',
        })),
      ),
      '--out',
      join(out, 'evolved'),
      '--models',
      w.models,
      '--model',
      'judge',
    ],
    failed: (run, out) => {
      const report = JSON.parse(readFileSync(join(out, 'evolved', 'report.json'), 'utf8'));
      expect(report.out.written).toBe(false);
      expect(existsSync(join(out, 'evolved', 'skill'))).toBe(false);
      expect(run.stderr).toMatch(/4 of 4 trajectories could not be analysed/);
    },
    code: 3,
  },
  {
    name: 'skill evolve-judge',
    args: (w, out) => [
      'skill',
      'evolve-judge',
      '--skill',
      w.dir,
      '--input',
      jsonl(
        w.dir,
        'labelled.jsonl',
        Array.from({ length: 8 }, (_, i) => ({
          id: `l${i}`,
          prompt: `Question ${i}?`,
          chosen: `Good answer ${i}.`,
          rejected: `Bad ${i}.`,
        })),
      ),
      '--models',
      w.models,
      '--model',
      'judge',
      '--out',
      join(out, 'evolved-judge'),
    ],
    failed: (run, out) => {
      const report = JSON.parse(readFileSync(join(out, 'evolved-judge', 'report.json'), 'utf8'));
      expect(report.out.written).toBe(false);
      expect(existsSync(join(out, 'evolved-judge', 'skill'))).toBe(false);
      expect(run.stderr).toMatch(/(\d+) of \1 judgments got no readable verdict/);
    },
    code: 3,
  },
];

const BACKENDS = ['answers 500', 'refuses connections'] as const;

let server: ScriptedOpenAIServer;
const workspaces = new Map<(typeof BACKENDS)[number], Workspace>();

beforeAll(async () => {
  // A server with no script answers every request 500.
  server = await startScriptedOpenAIServer();
  const refused = await refusingEndpoint();
  const index = join(tempDir(), 'idx');
  const built = await runCli([
    'index',
    'build',
    '--corpus',
    join(repoRoot, 'examples/corpus/corpus.jsonl'),
    '--out',
    index,
  ]);
  expect(built.code).toBe(0);
  for (const [backend, url] of [
    ['answers 500', server.url],
    ['refuses connections', refused],
  ] as const) {
    const dir = tempDir();
    cpSync(join(repoRoot, 'skills/reward-judge'), dir, { recursive: true });
    const models = join(dir, 'models.yaml');
    writeFileSync(models, `models:\n  judge:\n    model: judge\n    base_url: ${url}\n    max_retries: 0\n`);
    workspaces.set(backend, { dir, models, index });
  }
});
afterAll(async () => {
  await server.close();
});

// Each case runs the CLI; on a loaded machine a run takes seconds.
describe.each(BACKENDS)('every command against a backend that %s', { timeout: 120_000 }, (backend) => {
  test.each(CASES)('$name counts every sample failed and says so in its exit code', async (c) => {
    const w = workspaces.get(backend) as Workspace;
    const out = tempDir();
    const run = await runCli([...c.args(w, out), '--max-consecutive-failures', '0']);
    expect(run.stderr).not.toMatch(/internal error|\n {4}at /);
    expect(run.stderr).not.toMatch(/stopped: the backend is down/);
    c.failed(run, out);
    expect(run.code).toBe(c.code);
  });

  test.each(CASES)('$name stops with exit 4 once the breaker opens, naming the endpoint', async (c) => {
    const w = workspaces.get(backend) as Workspace;
    const out = tempDir();
    const run = await runCli([...c.args(w, out), '--max-consecutive-failures', '2']);
    expect(run.stderr).not.toMatch(/internal error|\n {4}at /);
    const url = readFileSync(w.models, 'utf8').match(/base_url: (\S+)/)?.[1] as string;
    const stopped = run.stderr.split('\n').filter((line) => line.includes('stopped: the backend is down'));
    expect(stopped).toHaveLength(1);
    expect(stopped[0]).toContain(url);
    expect(stopped[0]).toMatch(backend === 'answers 500' ? /HTTP 500/ : /connection failed/);
    expect(run.code).toBe(4);
  });
});
