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

  it('should load no judge or Skill-RM implementation and no model client, only what parses a spec', () => {
    const run = importRoot([]);
    expect(run.status).toBe(0);
    const loaded = new Set(run.modules.map((m) => m.replace(/.*\/dist\//, '')));
    expect(loaded.has('spec/sources/genrm-source.js')).toBe(true);
    // Each judge kind's implementation loads when its check first runs, never with the registry.
    for (const implementation of [
      'judges/index.js',
      'judges/genrm-judge.js',
      'judges/openrs/openrs-judge.js',
      'judges/medical/judge-medical-rubric.js',
      'judges/tool-plan/judge-tool-plan.js',
      'judges/claims/march-claim-check.js',
      'judges/claims/claim-aggregate.js',
      'judges/evpv/llm-evpv-roles.js',
      'judges/evpv/score-evpv-problem.js',
      'skills/index.js',
      'skills/skill-rm/index.js',
      'skills/skill-rm/skill-rm-judge.js',
      'skills/skill-rm/skill-rm-pointwise.js',
    ]) {
      expect(loaded).not.toContain(implementation);
    }
    // Of the model layer, only the pure helpers that sum usage and keep call traces.
    expect([...loaded].filter((m) => m.startsWith('llm/')).sort()).toEqual([
      'llm/judge-call-of.js',
      'llm/usage-of.js',
    ]);
    // Of Skill-RM, only its default caps (params defaults); the skill package loader stays, as
    // skill_rm reads its skill when the spec is compiled.
    expect([...loaded].filter((m) => m.startsWith('skills/skill-rm/'))).toEqual([
      'skills/skill-rm/skill-rm-caps.js',
    ]);
  });
});
