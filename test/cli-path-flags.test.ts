import {
  chmodSync,
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { pathArguments, pathOptions } from '../src/cli/check-path-flags.js';
import { EXIT } from '../src/cli/exit-codes.js';
import { createProgram } from '../src/cli/program.js';
import { runCli } from '../src/cli/run-cli.js';
import { TOP_LEVEL_COMMANDS } from '../src/cli/top-level-commands.js';
import { repoRoot, tempDir } from './cli-harness.js';

// Runs the CLI in this process (runCli, as main.js does): a few hundred command lines in seconds,
// where as many `node` processes would take minutes of CI time.

const dir = tempDir();
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const input = join(dir, 'in.jsonl');
copyFileSync(join(repoRoot, 'examples/mixed.jsonl'), input);
const models = file(
  'models.yaml',
  'models:\n  judge:\n    model: m\n    base_url: http://127.0.0.1:9/v1\n    max_retries: 0\n',
);
const spec = join(dir, 'spec.yaml');
copyFileSync(join(repoRoot, 'presets/math.yaml'), spec);
const skill = join(repoRoot, 'skills/reward-judge');
const patch = file('patch.json', '{"reasoning":"r","edits":[],"changelog":"c"}');
const traces = file('traces.jsonl', '');
const rubrics = file('rubrics.jsonl', '');
const corpus = file('corpus.jsonl', '{"id":"d1","text":"a"}\n');
const folder = (name: string) => {
  const path = join(dir, name);
  mkdirSync(path, { recursive: true });
  return path;
};
const index = folder('index');
const review = folder('review');
const out = (name: string) => join(dir, 'out', name);
folder('out');

/**
 * A command line per command that runs with valid paths; each case below swaps one path for a bad
 * one. A command whose definition has a path flag and no line here fails the completeness test.
 */
/** The flags of a command that calls the judge model, with no store. */
const judgeModel = ['-m', 'judge', '--models', models, '--store', 'none'];

const BASE: Record<string, string[]> = {
  score: ['-i', input, '-o', out('score.jsonl'), '--store', 'none', '-s', spec, '--models', models],
  redteam: [
    '-s',
    spec,
    '-i',
    input,
    '-o',
    out('redteam.json'),
    '--exploits',
    'empty-answer',
    '--models',
    models,
  ],
  audit: [
    '-s',
    spec,
    '-i',
    input,
    '-o',
    out('audit.json'),
    '--report',
    out('audit.html'),
    '--probes',
    'none',
  ],
  calibrate: [
    '--scores',
    input,
    '-l',
    input,
    '-o',
    out('map.json'),
    '--report',
    out('calibration.html'),
    '--summary',
    out('calibration.json'),
    '--models',
    models,
  ],
  'verify math': ['-i', input, '-o', out('v.jsonl')],
  'verify ifeval': ['-i', input, '-o', out('v.jsonl')],
  'verify code': ['-i', input, '-o', out('v.jsonl')],
  ...Object.fromEntries(
    [
      'pairwise',
      'pointwise',
      'tool-plan',
      'genrm',
      'openrs',
      'medical_rubric',
      'rubric',
      'tool_plan',
      'claims',
      'evpv',
      'skill_rm',
    ].map((kind) => [`judge ${kind}`, ['-i', input, '-o', out('j.jsonl'), ...judgeModel]]),
  ),
  bench: ['-d', 'pairwise', '-i', input, '-o', out('b.jsonl'), ...judgeModel],
  'spec validate': [spec],
  'skill validate': [skill],
  'skill show': [skill],
  'skill apply': ['--skill', skill, '--patch', patch, '--out', out('applied')],
  'skill evolve': ['--skill', skill, '--traces', traces, '--out', out('ev'), ...judgeModel],
  'skill evolve-judge': ['--skill', skill, '--input', input, '--out', out('evj'), ...judgeModel],
  'runs list': ['--store', join(dir, 'store.sqlite')],
  'runs show': ['some-run', '--store', join(dir, 'store.sqlite')],
  'runs export': ['some-run', '--store', join(dir, 'store.sqlite'), '-o', out('export.jsonl')],
  view: ['--store', join(dir, 'store.sqlite'), '--port', '0'],
  'rubrics generate': [
    '-a',
    'judge',
    '-a',
    'judge',
    '-w',
    'judge',
    '-i',
    input,
    '-o',
    out('r.jsonl'),
    '--models',
    models,
  ],
  'rubrics validate': [rubrics],
  'rubrics export': [rubrics, '--out', out('review')],
  'rubrics import': [review, '--out', out('imported.jsonl')],
  'rubrics quality': [
    '--producer',
    'genrm',
    '--proxy-model',
    'judge',
    '-i',
    input,
    '-o',
    out('q.jsonl'),
    ...judgeModel,
  ],
  'rubrics export-pools': ['--out', out('pool-review')],
  'rubrics import-pools': [review, '--out', out('pools')],
  'rubrics evolve': [
    '--judge',
    'judge',
    '--mutator',
    'judge',
    '--labelled',
    rubrics,
    '--out',
    out('evolution'),
    '--models',
    models,
  ],
  'check claims': ['-i', input, '-o', out('c.jsonl'), ...judgeModel],
  serve: ['-s', spec, '--store', 'none', '--port', '0', '--models', models],
  advantages: ['-i', input, '-o', out('a.jsonl'), '--store', 'none'],
  'evpv score': ['-i', input, '-o', out('e.jsonl'), '--models', models, '--store', 'none'],
  'evpv corruption': ['-i', input, '-o', out('e.json'), '--models', models, '--store', 'none'],
  'index build': ['--corpus', corpus, '--out', out('index')],
  'index query': ['--index', index, 'what'],
  'index serve': ['--index', index, '--port', '0'],
  selfplay: ['--seeds', input, '--corpus', index, '-o', out('sp'), '--models', models],
  'lab siamesenorm': ['-o', out('lab')],
  'lab mdm': ['-o', out('lab')],
  'lab gap': ['-o', out('lab')],
  'lab dir': ['-o', out('lab')],
  'lab rlvr': ['-o', out('lab')],
  demo: ['--out', out('demo'), '--tiny'],
};

/** A file that really cannot be written by this process: chmod stops a user, but not root. */
function readOnlyFile(): string {
  const candidates =
    process.getuid?.() === 0
      ? // sysfs refuses a write to a 0444 file even to root.
        readdirSync('/sys/kernel')
          .map((name) => join('/sys/kernel', name))
          .filter((path) => statSync(path).isFile())
      : [file('read-only.jsonl', '')];
  for (const path of candidates) {
    if (process.getuid?.() !== 0) chmodSync(path, 0o444);
    try {
      closeSync(openSync(path, 'r+'));
    } catch {
      return path;
    }
  }
  throw new Error('no file that this process cannot write was found; the read-only cases cannot run');
}

const plainFile = file('plain.txt', 'x');
const BAD = {
  folder: () => folder('a-folder'),
  missingParent: () => join(dir, 'no-such-folder', 'x.jsonl'),
  underAFile: () => join(plainFile, 'x'),
  aFile: () => plainFile,
  readOnly: readOnlyFile,
};
type Bad = keyof typeof BAD;

interface Case {
  command: string;
  flag: string;
  bad: Bad;
  value: string;
  argv: string[];
}

/** Every action command of the program, by its full name. */
async function actionCommands(): Promise<Array<{ name: string; command: Command }>> {
  const found: Array<{ name: string; command: Command }> = [];
  const walk = (command: Command, prefix: string[]) => {
    const name = [...prefix, command.name()];
    if (pathOptions(command).length > 0 || pathArguments(command).length > 0)
      found.push({ name: name.join(' '), command });
    for (const sub of command.commands) walk(sub, name);
  };
  for (const entry of TOP_LEVEL_COMMANDS) {
    const program = await createProgram([entry.name]);
    const top = program.commands.find((c) => c.name() === entry.name);
    if (top) walk(top, []);
  }
  return found;
}

/** The bad values each kind of path must be refused for. */
function badsFor(use: string, kind: string): Bad[] {
  if (use === 'read')
    return kind === 'dir'
      ? ['aFile', 'missingParent']
      : kind === 'file'
        ? ['folder', 'missingParent']
        : ['missingParent', 'underAFile'];
  if (use === 'store') return ['folder', 'readOnly', 'underAFile'];
  return kind === 'dir' ? ['aFile', 'underAFile'] : ['folder', 'missingParent', 'readOnly'];
}

/** Replaces (or adds) one flag's value in a base command line. */
function withValue(base: string[], names: string[], value: string): string[] {
  const argv = [...base];
  const at = argv.findIndex((arg) => names.includes(arg));
  if (at >= 0) argv[at + 1] = value;
  else argv.push(names[0] as string, value);
  return argv;
}

async function cases(): Promise<Case[]> {
  const all: Case[] = [];
  for (const { name, command } of await actionCommands()) {
    const base = BASE[name];
    if (!base) continue;
    for (const { option, role } of pathOptions(command)) {
      const names = [option.long, option.short].filter((n): n is string => n !== undefined);
      for (const bad of badsFor(role.use, role.kind)) {
        const value = BAD[bad]();
        all.push({
          command: name,
          flag: names[0] as string,
          bad,
          value,
          argv: [...name.split(' '), ...withValue(base, names, value)],
        });
      }
    }
    for (const { argument, index: at, role } of pathArguments(command)) {
      const positional = base.filter((arg, i) => !arg.startsWith('-') && !base[i - 1]?.startsWith('-'));
      for (const bad of badsFor(role.use, role.kind)) {
        const argv = [...base];
        const value = BAD[bad]();
        argv[argv.indexOf(positional[at] as string)] = value;
        all.push({
          command: name,
          flag: `<${argument.name()}>`,
          bad,
          value,
          argv: [...name.split(' '), ...argv],
        });
      }
    }
  }
  return all;
}

const allCases = await cases();

describe('path flags', () => {
  test('should have a command line for every command that takes a path', async () => {
    const missing = (await actionCommands()).map((c) => c.name).filter((name) => !BASE[name]);
    expect(missing).toEqual([]);
    expect(allCases.length).toBeGreaterThan(150);
  });

  let stderr = '';
  beforeEach(() => {
    stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  });
  afterEach(() => vi.restoreAllMocks());

  test.each(allCases.map((c) => [`${c.command} ${c.flag} (${c.bad})`, c] as const))(
    'should refuse %s with one line naming it, exit 2',
    async (_title, { argv, flag, value }) => {
      const code = await runCli(argv);
      expect(stderr).not.toMatch(/^ {4}at /m);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toContain(`${flag} ${value}`);
      expect(code).toBe(EXIT.usage);
    },
  );
});

describe('system errors during a run', () => {
  test('should end a write the kernel refuses after the open with one line, exit 1', async () => {
    // /proc/version opens for writing (root) or not (a user); either way the write or the open fails.
    let stderr = '';
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      stderr += String(chunk);
      return true;
    });
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      const code = await runCli(['score', ...withValue(BASE.score ?? [], ['--summary'], '/proc/version')]);
      expect(stderr).not.toMatch(/^ {4}at /m);
      expect(stderr.trim().split('\n')).toHaveLength(1);
      expect(stderr).toMatch(/\/proc\/version|EIO/);
      expect([EXIT.error, EXIT.usage]).toContain(code);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
