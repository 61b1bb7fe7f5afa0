import { spawn } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, test } from 'vitest';
import { createProgram } from '../src/cli/program.js';
import { writeVerlParquet } from '../src/dataset/test-utils/verl-parquet.js';
import { repoRoot } from './cli-harness.js';
import { type DocCommand, docFiles, extractDocCommands } from './doc-commands.js';
import { startScriptedOpenAIServer } from './scripted-openai-server.js';

/**
 * Every `rewardkit` command shown in README.md and docs/ (extracted, so a new example is tested by
 * default): each names a real command with real flags, and each runnable one runs as written, in
 * its doc's order, in a folder holding the examples and a stand-in for each file the docs name,
 * against a scripted model server that answers every request with the same text. A judge row that
 * text does not satisfy fails (exit 3: the command ran and counted it); what fails this test is a
 * command that could not run (exit 1 or 2, a stack trace) or an exit code other than the doc says.
 */

/** Commands this machine cannot run as written, each with the reason; matched against the shown text. */
const SKIPPED: Array<{ match: RegExp; reason: string }> = [
  { match: /postgres:\/\//, reason: 'needs the PostgreSQL server at the documented host' },
  {
    match: /--dataset rewardbench|rb\.parquet/,
    reason: 'needs the published RewardBench file (a download); the format is tested in cli-bench',
  },
  {
    match: /^rewardkit lab /,
    reason: 'minutes of CPU training per experiment; cli-lab.e2e runs them at test sizes',
  },
];

/** Model names the docs use; every one is defined in models.yaml and m.yaml. */
const MODELS = ['judge', 'small', 'large', 'big', 'vlm', 'prm', 'policy', 'a', 'b', 'c', 'w', 'analyst'];

const jsonl = (rows: unknown[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
const pairs = jsonl(
  [1, 2, 3, 4, 5, 6, 7, 8].map((i) => ({
    id: `p${i}`,
    prompt: `What is ${i}+${i}?`,
    chosen: `${2 * i}`,
    rejected: `${2 * i + 1}`,
  })),
);

/** Stand-ins for the files the docs name, in the format each command reads. */
function writeFixtures(dir: string, serverUrl: string, written: ReadonlySet<string>): void {
  // Copies, never links: a documented command that writes (a resumed --output) must not reach the repository.
  for (const name of ['examples', 'skills'])
    cpSync(join(repoRoot, name), join(dir, name), { recursive: true });
  const models = `models:\n${MODELS.map((m) => `  ${m}: {model: ${m}, base_url: ${serverUrl}, max_retries: 0}\n`).join('')}`;
  const files: Record<string, string> = {
    'models.yaml': models,
    'm.yaml': models,
    'pairs.jsonl': pairs,
    'labelled-pairs.jsonl': pairs,
    'rag.jsonl': jsonl([
      {
        id: 'r1',
        question: 'How many staff?',
        documents: ['Acme had 1,200 staff.'],
        answer: 'Acme had 1,200 staff.',
      },
    ]),
    'rag-samples.jsonl': jsonl([
      {
        id: 'r1',
        prompt: 'How many staff?',
        response: 'Acme had 1,200 staff.',
        metadata: { documents: ['Acme had 1,200 staff.'] },
      },
    ]),
    'rollouts.jsonl': jsonl(
      [0, 1, 2, 3].map((i) => ({
        id: `gsm8k-${i}`,
        data_source: 'gsm8k',
        prompt: 'What is 2+2?',
        response: `2+2 is ${i + 3}. #### ${i + 3}`,
        reference: '4',
        group: 'g1',
      })),
    ),
    'ifeval.jsonl': jsonl([
      {
        id: 'ifeval-1',
        prompt: 'Write a haiku about autumn, in all lowercase letters.',
        response: 'red leaves drift and fall\nquiet paths beneath the oaks\nthe year exhales slow',
        instruction_id_list: ['change_case:english_lowercase'],
        kwargs: [{}],
      },
    ]),
    'code.jsonl': jsonl([
      {
        id: 'code-1',
        language: 'javascript',
        response: '```javascript\nconsole.log(Math.max(...input.trim().split(/\\s+/).map(Number)));\n```',
        tests: [{ kind: 'stdio', stdin: '3 9 2\n', expected_stdout: '9\n' }],
      },
    ]),
    'judgebench.jsonl': jsonl([
      { pair_id: 'j1', source: 'mmlu', question: 'q', response_A: 'a', response_B: 'b', label: 'A>B' },
    ]),
    'groups.jsonl': jsonl([
      {
        group: 'g1',
        prompt: 'What is 2+2?',
        responses: ['4', '5', '3', 'four'],
        rewards: [1, 0, 0, 1],
        dims: [
          [1, 0],
          [0, 1],
          [0, 0],
          [1, 1],
        ],
      },
    ]),
    'step-12.jsonl': jsonl([
      {
        group: 'g1',
        rewards: [1, 0, 1],
        hidden_states: [
          [1, 0],
          [0, 1],
          [1, 1],
        ],
      },
    ]),
    'clipo.yaml': 'tau: 0.05\nlambda: 0.2\n',
    'ref.jsonl': jsonl([{ dims: [1, 0] }, { dims: [0, 1] }, { dims: [1, 1] }]),
    'queries.jsonl': jsonl([{ id: 'q1', query: 'Can I take ibuprofen with a cold?' }]),
    'c.jsonl': jsonl([{ id: 'd1', title: 'Velmora', text: 'Velmora was founded by Ada.' }]),
    'patch.json': JSON.stringify({ reasoning: 'none needed', edits: [], changelog: 'no change' }),
    'runs.jsonl': jsonl([
      {
        id: 't1',
        task: 'How many metres is 3.2 km?',
        steps: [{ role: 'assistant', content: '320 m' }],
        outcome: { pass: false },
      },
    ]),
    'labels.jsonl': jsonl([{ id: 'gsm8k-1', verdict: 'pass' }]),
    'problems.jsonl': jsonl([
      {
        id: 'v1',
        question: 'How many sides has the shape?',
        constraints: { caption: 'A triangle.', key_facts: ['the shape has 3 sides'] },
        answer: '3',
        candidates: [{ output: '<step>A triangle has 3 sides.</step>' }],
      },
    ]),
    'rollouts/120.jsonl': jsonl([{ input: 'What is 2+2?', output: '#### 4', gts: '4', score: 1, step: 120 }]),
    'gsm8k/train.jsonl': jsonl([{ id: 'a', response: '#### 1', reference: '1' }]),
    'gsm8k/test.jsonl': jsonl([{ id: 'b', response: '#### 2', reference: '2' }]),
    'my-skill/SKILL.md': 'no front matter here\n',
  };
  for (const [name, text] of Object.entries(files)) {
    if (written.has(name)) continue;
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  for (const [name, source] of Object.entries({
    'in.jsonl': 'examples/mixed.jsonl',
    'results.jsonl': 'examples/mixed.jsonl',
    'rows.jsonl': 'examples/medical-rows.jsonl',
    'answers.jsonl': 'examples/medical-rows.jsonl',
    'rubrics.jsonl': 'examples/medical-rubrics.jsonl',
    'r.jsonl': 'examples/medical-rubrics.jsonl',
    'atp.jsonl': 'examples/atp-rows.jsonl',
  })) {
    if (!written.has(name)) copyFileSync(join(repoRoot, source), join(dir, name));
  }
  const verl = [0, 1].map((i) => ({
    data_source: 'openai/gsm8k',
    prompt: [{ role: 'user', content: `What is ${i}+${i}?` }],
    reward_model: { style: 'rule', ground_truth: String(2 * i) },
    extra_info: { split: 'test', index: BigInt(i) },
    responses: [`#### ${2 * i}`],
  }));
  const pairRows = pairs
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, string>);
  writeFileSync(
    join(dir, 'pairs.parquet'),
    new Uint8Array(
      parquetWriteBuffer({
        columnData: ['id', 'prompt', 'chosen', 'rejected'].map((name) => ({
          name,
          data: pairRows.map((r) => r[name]),
          type: 'STRING' as const,
        })),
      }),
    ),
  );
  writeVerlParquet(join(dir, 'math_generations.parquet'), verl, 2);
  writeVerlParquet(join(dir, 'gen.parquet'), verl, 2);
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Servers run until stopped: started on a free port, asked once over HTTP, then sent SIGTERM. */
const SERVERS = /^(serve|view|index serve)$/;

function run(shownArgv: string[], cwd: string): Promise<Run & { probed?: number }> {
  const name = shownArgv[0] === 'index' ? `index ${shownArgv[1]}` : (shownArgv[0] ?? '');
  const server = SERVERS.test(name);
  // A documented port (8000, view's 7777) may be taken on a CI machine: the one change made to a line.
  const argv = server
    ? [
        ...shownArgv.filter((_w, i) => shownArgv[i] !== '--port' && shownArgv[i - 1] !== '--port'),
        '--port',
        '0',
      ]
    : shownArgv;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(repoRoot, 'dist/cli/main.js'), ...argv], {
      cwd,
      env: { ...process.env, REWARDKIT_STORE: join(cwd, '.rewardkit/store.sqlite') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let probed: number | undefined;
    let probing = false;
    const probe = () => {
      const url = /http:\/\/[\d.]+:\d+[^\s]*/.exec(stdout + stderr)?.[0];
      if (!server || probing || url === undefined) return;
      probing = true;
      const address = url.replace('0.0.0.0', '127.0.0.1');
      const target = address.endsWith('/retrieve')
        ? address
        : `${address.replace(/\/$/, '')}/${name === 'serve' ? 'healthz' : ''}`;
      fetch(
        target,
        target.endsWith('/retrieve')
          ? { method: 'POST', body: JSON.stringify({ queries: ['Velmora'], topk: 1 }) }
          : {},
      )
        .then((response) => {
          probed = response.status;
        })
        .catch(() => {
          probed = -1;
        })
        .finally(() => child.kill('SIGTERM'));
    };
    child.stdout.on('data', (d) => {
      stdout += d;
      probe();
    });
    child.stderr.on('data', (d) => {
      stderr += d;
      probe();
    });
    // A server that never says where it listens is stopped, and fails its probe.
    if (server) setTimeout(() => child.kill('SIGKILL'), 30_000).unref();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ...(server && { probed }) }));
  });
}

/** The command a doc line names, and the long and short flags it takes (with its parents'). */
async function resolveCommand(argv: string[]): Promise<{ command: Command; rest: string[] } | undefined> {
  const [name] = argv;
  if (name === undefined) return undefined;
  let command = (await createProgram([name])).commands.find((c) => c.name() === name);
  let rest = argv.slice(1);
  while (command && rest[0] !== undefined) {
    const sub = command.commands.find((c) => c.name() === rest[0]);
    if (!sub) break;
    command = sub;
    rest = rest.slice(1);
  }
  return command ? { command, rest } : undefined;
}

const commands = docFiles(repoRoot).flatMap((file) => extractDocCommands(repoRoot, file));
const skipOf = (c: DocCommand) => SKIPPED.find((s) => s.match.test(c.text.replace(/^npx\s+/, '')));

describe('commands shown in README.md and docs/', () => {
  test('should find the documented commands', () => {
    expect(commands.length).toBeGreaterThan(60);
  });

  test.each(commands.map((c) => [`${c.where}: ${c.text}`, c] as const))(
    'should name a real command and real flags: %s',
    async (_title, c) => {
      const words = c.argv.map((w) => w.replace(/^\[|\]$/g, '').replace(/\\\|/g, '|'));
      const resolved = await resolveCommand(words);
      expect(resolved, `${c.where}: no command "${words.slice(0, 2).join(' ')}"`).toBeDefined();
      if (!resolved) return;
      const known = new Set(['--help', '-h']);
      for (let cmd: Command | null = resolved.command; cmd; cmd = cmd.parent) {
        for (const option of cmd.options) {
          if (option.long) known.add(option.long);
          if (option.short) known.add(option.short);
          if (option.negate && option.long) known.add(option.long);
        }
      }
      const flags = resolved.rest.filter((w) => /^--?[a-z]/i.test(w)).map((w) => w.split('=')[0] as string);
      expect(
        flags.filter((f) => !known.has(f)),
        `${c.where}: unknown flags`,
      ).toEqual([]);
    },
  );

  const byFile = new Map<string, DocCommand[]>();
  for (const c of commands.filter((c) => !c.synopsis)) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c]);
  test.concurrent.each([...byFile].map(([file, shown]) => [file, shown] as const))(
    'should run every example of %s as written',
    async (_file, shown) => {
      const dir = mkdtempSync(join(tmpdir(), 'rewardkit-docs-'));
      // One server per doc, so that what a command asked is counted apart from other docs' commands.
      const server = await startScriptedOpenAIServer();
      // Readable for no judge in particular: each judge fails its rows on it, and says so.
      server.script({ reply: { content: 'I cannot judge this.' } });
      // A file one of the doc's commands writes is left for that command to write.
      const written = new Set(
        shown.flatMap((c) =>
          c.argv.filter((_w, i) => ['-o', '--output', '--out'].includes(c.argv[i - 1] ?? '')),
        ),
      );
      writeFixtures(dir, server.url, written);
      // A store for the inspector to open, as `score` writes one.
      if (shown.some((c) => c.argv.includes('runs.sqlite'))) {
        await run(
          ['score', '-s', 'math', '-i', 'examples/mixed.jsonl', '-o', 'runs.jsonl', '--store', 'runs.sqlite'],
          dir,
        );
      }
      try {
        for (const c of shown) {
          if (skipOf(c)) continue;
          // A command may fail rows only on the scripted judge's answers: its own, or those in an
          // earlier command's output it reads. Before any model was asked, every row must pass.
          const askedBefore = server.requests.length > 0;
          const result = await run(c.argv, dir);
          const what = `${c.where}: ${c.text} (${server.requests.length} model requests so far)\n${result.stderr.slice(-2000)}\n${result.stdout.slice(0, 600)}`;
          expect(result.stderr, what).not.toMatch(/^ {4}at |internal error/m);
          if (
            result.probed !== undefined ||
            SERVERS.test(c.argv.slice(0, c.argv[0] === 'index' ? 2 : 1).join(' '))
          ) {
            // A server answered its probe (its health check, the inspector's page, a retrieval), then stopped cleanly on SIGTERM.
            expect(result.probed, what).toBe(200);
          }
          if (c.exit !== undefined) expect(result.code, what).toBe(c.exit);
          else if (!askedBefore && server.requests.length === 0) expect(result.code, what).toBe(0);
          else expect([0, 3], what).toContain(result.code);
        }
      } finally {
        await server.close();
      }
    },
    120_000,
  );

  test('should skip only commands a reason covers, each reason used', () => {
    const used = new Set(
      commands
        .filter((c) => !c.synopsis)
        .map(skipOf)
        .filter((s) => s !== undefined),
    );
    expect(SKIPPED.filter((s) => !used.has(s)).map((s) => s.reason)).toEqual([]);
  });
});
