import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './cli-harness.js';

// The packages a lean install may lack, and the native module a failed build leaves unusable.
const HEAVY = [
  'better-sqlite3',
  'pg',
  '@tensorflow/tfjs',
  '@tensorflow/tfjs-backend-wasm',
  'vega',
  'vega-lite',
  'node-llama-cpp',
  'typescript',
];

// What a user of the verifiers runs: the root entry, one call each of math, IFEval, format and
// JavaScript code checks, the results printed as JSON.
const SCRIPT = `
const rk = await import(${JSON.stringify(join(repoRoot, 'dist/index.js'))});
const math = rk.verifyMath('so \\\\boxed{4}', '4');
const ifeval = rk.checkInstructions({
  prompt: 'Answer in lowercase.',
  response: 'all lowercase here',
  instruction_id_list: ['change_case:english_lowercase'],
});
const json = rk.jsonCheck('{"a": 1}');
const sandbox = rk.createCodeSandbox();
const code = await rk.verifyCode(sandbox, 'console.log(Number(input) * 2)', [
  { kind: 'stdio', stdin: '3', expected_stdout: '6' },
], { language: 'javascript' });
await sandbox.close();
console.log(JSON.stringify({ math: math.status, ifeval: ifeval.follow_all_strict, json: json.pass, code: code.score }));
`;

function importRoot(hidden: readonly string[]) {
  const log = join(mkdtempSync(join(tmpdir(), 'rewardkit-root-import-')), 'modules.txt');
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      join(repoRoot, 'test/hide-packages/register.mjs'),
      '--import',
      join(repoRoot, 'test/module-log/register.mjs'),
      '--input-type=module',
      '-e',
      SCRIPT,
    ],
    { encoding: 'utf8', env: { ...process.env, RK_HIDE_PACKAGES: hidden.join(','), RK_MODULE_LOG: log } },
  );
  const modules = readFileSync(log, 'utf8').split('\n').filter(Boolean);
  return { ...run, modules };
}

describe("import from 'rewardkit'", () => {
  it('should verify math, IFEval, JSON and code with every heavy or native package missing', () => {
    const run = importRoot(HEAVY);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({ math: 'correct', ifeval: true, json: true, code: 1 });
  });

  it('should load no store, no native module and no model SDK', () => {
    const run = importRoot([]);
    expect(run.status).toBe(0);
    // The log must see the import at all, or the checks below would pass on an empty list.
    expect(run.modules.some((m) => m.endsWith('/dist/verify/math/index.js'))).toBe(true);
    const packages = run.modules.flatMap((m) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(m)?.[1] ?? []);
    for (const name of [...HEAVY, 'openai']) expect(packages).not.toContain(name);
    // The root reaches only the store's pure helpers (hashes, tallies, row encoding), never a
    // store implementation or the `rewardkit/store` entry.
    const store = run.modules
      .filter((m) => m.includes('/dist/store/'))
      .map((m) => m.replace(/.*\/dist\//, ''));
    expect([...new Set(store)].sort()).toEqual([
      'store/is-sqlite-store.js',
      'store/source-stats-tally.js',
      'store/spec-hash.js',
      'store/sqlite-result-rows.js',
    ]);
  });
});
