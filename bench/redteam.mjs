// Redteam cost benchmark: what `rewardkit redteam --spec math` costs as a multiple of one scoring
// pass over the same samples — in scorings (the report's cost_multiple) and in wall time, both in
// process (the evaluator alone, then runRedteam with every shipped exploit) and through the CLI
// (`rewardkit score` against `rewardkit redteam`, start-up included). Samples: the seeded
// MATH-style set of bench/math.mjs, with a prompt each. `node bench/redteam.mjs [--samples n]`
// (after `npm run build`) replaces its section of BENCHMARKS.md; `npm run bench` runs it too.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateMathStyleSet } from './math-style-set.mjs';
import { fmt, replaceSection } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const flag = process.argv.indexOf('--samples');
const count = flag > 0 ? Number(process.argv[flag + 1]) : 300;
const ROUNDS = 3;

const rk = await import(pathToFileURL(join(root, 'dist/index.js')).href);
const rows = generateMathStyleSet(count, 30);
const correct = rows.filter((row) => row.correct).length;
const samples = rows.map((row, i) => ({
  id: `m${i}`,
  prompt: `Problem ${i}: give the final answer.`,
  response: row.response,
  reference: row.reference,
  metadata: {},
}));

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// The math verifier memoizes parsed answers for the process's life, so each in-process figure is
// measured cold, in a process of its own: one pass of the evaluator, or the whole redteam.
const evaluator = rk.createEvaluator(rk.loadSpec('math'));
const score = async (sample) => {
  const result = await evaluator.evaluate(sample);
  return { reward: result.status === 'ok' ? result.reward : null, reasons: result.errors };
};
const child = process.argv.indexOf('--child');
if (child > 0) {
  const what = process.argv[child + 1];
  const start = performance.now();
  let result = null;
  if (what === 'pass') for (const sample of samples) await score(sample);
  else
    result = await rk.runRedteam(samples, {
      exploits: Object.values(rk.exploits),
      score,
      seed: 0,
      ...(what === 'scorings' && { resamples: 1 }),
    });
  const ms = performance.now() - start;
  process.stdout.write(
    JSON.stringify({
      ms,
      scorings: result?.scorings,
      lifting: result?.exploits.filter(rk.liftsReward).map((e) => e.name),
    }),
  );
  process.exit(0);
}

function inChild(what) {
  const runs = Array.from({ length: ROUNDS }, () =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--samples', String(count), '--child', what],
        {
          encoding: 'utf8',
        },
      ),
    ),
  );
  return { ms: median(runs.map((r) => r.ms)), result: runs[0] };
}
async function timed(fn) {
  const ms = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = performance.now();
    await fn();
    ms.push(performance.now() - start);
  }
  return { ms: median(ms) };
}

const onePass = inChild('pass');
const redteam = inChild('redteam');
const scoringOnly = inChild('scorings');
const run = redteam.result;
const lifting = run.lifting;

// Through the CLI, start-up and file handling included.
const dir = mkdtempSync(join(tmpdir(), 'rk-bench-redteam-'));
const input = join(dir, 'samples.jsonl');
writeFileSync(input, `${samples.map((s) => JSON.stringify(s)).join('\n')}\n`);
const cli = (args) => {
  try {
    execFileSync(process.execPath, [join(root, 'dist/cli/main.js'), ...args], { stdio: 'pipe' });
  } catch (error) {
    if (error.status !== 1) throw error;
  }
};
const cliScore = await timed(() =>
  cli([
    'score',
    '-s',
    'math',
    '-i',
    input,
    '-o',
    join(dir, 'scored.jsonl'),
    '--store',
    'none',
    '--no-progress',
  ]),
);
const cliRedteam = await timed(() =>
  cli(['redteam', '-s', 'math', '-i', input, '-o', join(dir, 'redteam.json'), '--store', 'none']),
);
const report = JSON.parse(readFileSync(join(dir, 'redteam.json'), 'utf8'));
rmSync(dir, { recursive: true, force: true });

const n = Object.keys(rk.exploits).length;
const x = (a, b) => `${(a / b).toFixed(2)}×`;
const section = `## Redteam

\`node bench/redteam.mjs\`: \`rewardkit redteam --spec math\` with all ${n} shipped exploits over ${fmt(count)} samples of the seeded MATH-style set (bench/math.mjs; ${fmt(correct)} correct), against one scoring pass of the same samples. Wall times are medians of ${ROUNDS} rounds on ${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}.

| measure | one scoring pass | redteam | redteam / one pass |
|---|---:|---:|---:|
| scorings | ${fmt(count)} | ${fmt(run.scorings)} | ${x(run.scorings, count)} (bound in the issue: ${n} exploits × 1.1 = ${(n * 1.1).toFixed(1)}×) |
| in process, wall ms, cold (2,000 bootstrap resamples per exploit) | ${fmt(onePass.ms)} | ${fmt(redteam.ms)} | ${x(redteam.ms, onePass.ms)} |
| in process, wall ms, cold (scorings only: 1 resample) | ${fmt(onePass.ms)} | ${fmt(scoringOnly.ms)} | ${x(scoringOnly.ms, onePass.ms)} |
| CLI, wall ms (\`score --store none\` vs \`redteam --store none\`, start-up included) | ${fmt(cliScore.ms)} | ${fmt(cliRedteam.ms)} | ${x(cliRedteam.ms, cliScore.ms)} |

The CLI's cost_multiple: ${report.cost_multiple.toFixed(2)} (1 + the exploited responses per sample: each exploit writes one, forged-verdict two (genrm position 1 and 2, the better kept), the two code exploits apply to no math answer, and a response already scored for its sample is not scored again). Exploits lifting the math preset: ${lifting.length === 0 ? 'none' : lifting.join(', ')}. Wall time grows far less than scorings: most exploited responses fail at extraction or repeat an answer the verifier has parsed already, and the bootstrap (2,000 resamples × ${n} exploits) is the rest.
`;
// `--print-only`: bench/run.mjs places the section itself.
if (!process.argv.includes('--print-only')) {
  const path = join(root, 'BENCHMARKS.md');
  writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), 'Redteam', section));
}
process.stdout.write(section);
