// Start-up time of the CLI: the median wall time of whole processes, next to `node -e 0` run in the
// same rounds. `bench/run.mjs` adds this section to BENCHMARKS.md; `node bench/startup.mjs [--quick]`
// prints it alone (build first).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export async function startupSection({ root, quick, fmt, before }) {
  const dir = mkdtempSync(join(tmpdir(), 'rewardkit-startup-'));
  const row = join(dir, 'row.jsonl');
  writeFileSync(row, `${JSON.stringify({ id: 1, reference: '72', response: 'So she has 72.\n#### 72' })}\n`);
  const main = join(root, 'dist/cli/main.js');
  const cases = [
    { label: '`node -e 0` (baseline)', args: ['-e', '0'] },
    { label: '`rewardkit --help`', args: [main, '--help'] },
    { label: '`rewardkit score --help`', args: [main, 'score', '--help'] },
    { label: '`rewardkit verify math` on one row', args: [main, 'verify', 'math', '--input', row] },
    {
      label: '`rewardkit score --spec math` on one row (no store)',
      args: [
        main,
        'score',
        '--spec',
        'math',
        '--input',
        row,
        '--output',
        join(dir, 'out.jsonl'),
        '--store',
        'none',
        '--no-resume',
      ],
    },
    {
      label: "`import { verifyMath } from 'rewardkit'` (the root entry)",
      args: importArgs(join(root, 'dist/index.js')),
    },
    { label: 'the math verifier module alone', args: importArgs(join(root, 'dist/verify/math/index.js')) },
    ...(before
      ? [
          {
            label: 'the root entry of the build given by `--before`',
            args: importArgs(join(before, 'index.js')),
          },
        ]
      : []),
  ];
  const runs = quick ? 7 : 31;
  const times = cases.map(() => []);
  // Round-robin, after one unmeasured round, so that a busy moment or a cold disk cache weighs on
  // every case alike instead of on whichever ran then.
  for (let round = -1; round < runs; round++) {
    cases.forEach((c, i) => {
      const start = performance.now();
      const result = spawnSync(process.execPath, c.args, { stdio: ['ignore', 'ignore', 'pipe'] });
      const ms = performance.now() - start;
      if (result.status !== 0) throw new Error(`${c.label} exited ${result.status}: ${result.stderr}`);
      if (round >= 0) times[i].push(ms);
    });
  }
  const medians = times.map((t) => t.sort((a, b) => a - b)[Math.floor(t.length / 2)]);
  const [baseline] = medians;
  return `## Start-up (whole process, median of ${runs} runs)

| command | median | above \`node -e 0\` | vs \`node -e 0\` |
|---|---:|---:|---:|
${cases.map((c, i) => `| ${c.label} | ${fmt(medians[i], 0)} ms | ${i === 0 ? '—' : `${fmt(medians[i] - baseline, 0)} ms`} | ${fmt(medians[i] / baseline, 1)}× |`).join('\n')}

The root entry loads the verifiers, specs, datasets and result sinks, but no store, native module or model SDK: the store is \`rewardkit/store\`, so \`import 'rewardkit'\` works where better-sqlite3 did not build. A command loads only its own module (\`src/cli/top-level-commands.ts\`), and the math verifier builds mathjs from the functions it uses (\`src/verify/math/mathjs-subset.ts\`): importing \`mathjs\` itself costs about half a second. The OpenAI SDK (about 115 modules) is imported on a model's first call, so commands whose spec calls no model never load it.`;
}

/** `node` arguments that import one module and exit. */
function importArgs(path) {
  return ['--input-type=module', '-e', `await import(${JSON.stringify(pathToFileURL(path).href)})`];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const root = fileURLToPath(new URL('..', import.meta.url));
  const at = process.argv.indexOf('--before');
  const before = at > 0 ? process.argv[at + 1] : undefined;
  process.stdout.write(
    `${await startupSection({ root, quick: process.argv.includes('--quick'), fmt, before })}\n`,
  );
}
