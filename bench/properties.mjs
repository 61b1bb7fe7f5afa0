// The property-based tests (fast-check, fixed seed): how many generated inputs each target is tried
// with and how long that takes, next to the example-based tests of the same modules run the same
// way. `bench/run.mjs` adds this section to BENCHMARKS.md; `node bench/properties.mjs` prints it
// alone (build first: the CLI target runs dist/cli/main.js).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Each target: its property test file and the example-based test file of the same module (the baseline). */
const TARGETS = [
  ['dataset rows (`score`)', 'src/runner/score-file.property.test.ts', 'src/runner/score-file.test.ts'],
  [
    'dataset rows (`verify ifeval`)',
    'src/cli/map-jsonl-rows.property.test.ts',
    'src/cli/map-jsonl-rows.test.ts',
  ],
  ['spec YAML', 'src/spec/parse-spec.property.test.ts', 'src/spec/parse-spec.test.ts'],
  ['`--map` expressions', 'src/dataset/field-mapping.property.test.ts', 'src/dataset/field-mapping.test.ts'],
  [
    'CLI flags (`--map`, `--format`, judge params)',
    'src/cli/params-flags.property.test.ts',
    'src/cli/params-flags.test.ts',
  ],
  [
    'HTTP bodies (reward server)',
    'src/server/create-reward-app.property.test.ts',
    'src/server/create-reward-app.test.ts',
  ],
  [
    'HTTP bodies (`/retrieve`)',
    'src/retrieval/retriever-app.property.test.ts',
    'src/retrieval/retriever-app.test.ts',
  ],
  ['`score` through the CLI', 'test/cli-score-fuzz.e2e.test.ts', 'test/cli-score.e2e.test.ts'],
];

/** Runs test files in one vitest process; the wall time, and each property's log line when asked. */
function vitest(files, log) {
  const started = performance.now();
  const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...files], {
    cwd: root,
    env: { ...process.env, RK_SKIP_BUILD: '1', ...(log && { RK_PROPERTY_LOG: log }) },
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`vitest ${files.join(' ')} failed:\n${run.stdout}\n${run.stderr}`);
  return (performance.now() - started) / 1000;
}

/** The "Property-based tests" section of BENCHMARKS.md. */
export async function propertiesSection({ fmt }) {
  const dir = mkdtempSync(join(tmpdir(), 'rk-bench-props-'));
  const log = join(dir, 'properties.jsonl');
  const rows = [];
  let inputs = 0;
  let propertyWall = 0;
  let exampleWall = 0;
  try {
    for (const [name, propertyFile, exampleFile] of TARGETS) {
      const before = readLog(log).length;
      const wall = vitest([propertyFile], log);
      const example = vitest([exampleFile]);
      const properties = readLog(log).slice(before);
      const tried = properties.reduce((n, p) => n + p.numRuns, 0);
      const ms = properties.reduce((n, p) => n + p.ms, 0);
      inputs += tried;
      propertyWall += wall;
      exampleWall += example;
      rows.push(
        `| ${name} | ${properties.length} | ${fmt(tried)} | ${fmt(ms / 1000, 1)} s | ${fmt(wall, 1)} s | ${fmt(example, 1)} s |`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return `## Property-based tests (fast-check, seed 27)

Each property runs a fixed number of generated inputs from one seed (\`src/core/test-utils/check-property.ts\`),
with a 10 s limit per input (a hang fails the run). "properties" is the time inside the properties;
"file" the wall time of \`vitest run\` on the property file alone, next to the same for the module's
example-based test file (the baseline), so the cost of the properties is read against what the module's
tests already cost on this machine.

| target | properties | inputs tried | properties | file | example tests (baseline) |
|---|---:|---:|---:|---:|---:|
${rows.join('\n')}
| **all** | | **${fmt(inputs)}** | | **${fmt(propertyWall, 1)} s** | **${fmt(exampleWall, 1)} s** |`;
}

function readLog(path) {
  try {
    return readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { fmt } = await import('./measure.mjs');
  process.stdout.write(`${await propertiesSection({ fmt })}\n`);
}
