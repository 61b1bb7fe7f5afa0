// QuickJS limits: how far each memory bomb grows the host process, and when its verdict comes,
// under 512 MB / 3 s per test, beside the same bombs on another build (`--before <dist>`) in the
// same run; and what the limits cost a well-behaved program (warm throughput, both builds).
// Each bomb runs in a fresh node process with a warm sandbox, so one bomb's heap never counts
// against the next. Runnable alone: `node bench/quickjs-limits.mjs [--before <dist>] [--quick]`.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt } from './measure.mjs';

const BOMBS = [
  ['array growth', 'const a = []; while (true) a.push(new Array(1e5).fill(1.5));'],
  ['typed arrays', 'const a = []; while (true) a.push(new Float64Array(1e6));'],
  ['nested objects', "let o = {}; while (true) o = { a: o, b: [o, o], c: 'y'.repeat(100) + Math.random() };"],
  ['closures', 'const fs = []; let i = 0; while (true) { const k = i++; fs.push(() => k + fs.length); }'],
  [
    '`JSON.stringify` of 20M numbers',
    'const a = new Array(2e7).fill(123456789); const s = JSON.stringify(a); const t = s + s;',
  ],
  ['a 300 MB thrown string', "throw 'x'.repeat(3e8);"],
];
const LIMITS = { memoryMb: 512, timeoutMs: 3000 };

/** One bomb in a fresh process: host growth (peak RSS over RSS before), time to verdict, status. */
function bomb(dist, code) {
  const script = `
    const { createCodeSandbox } = await import(${JSON.stringify(pathToFileURL(resolve(dist, 'index.js')).href)});
    const sandbox = createCodeSandbox();
    const tests = [{ kind: 'stdio', stdin: '', expected_stdout: 'never' }];
    await sandbox.runTests({ language: 'javascript', code: 'console.log(1)' }, tests, ${JSON.stringify(LIMITS)});
    const before = Math.max(process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
    const start = performance.now();
    const report = await sandbox.runTests({ language: 'javascript', code: ${JSON.stringify(code)} }, tests, ${JSON.stringify(LIMITS)});
    const ms = performance.now() - start;
    const grew = process.resourceUsage().maxRSS * 1024 - before;
    await sandbox.close();
    console.log(JSON.stringify({ grew, ms, status: report.results[0].status }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  const last = run.stdout.trim().split('\n').at(-1);
  if (!last) return { grew: Number.NaN, ms: Number.NaN, status: `crashed: ${run.stderr.split('\n')[0]}` };
  return JSON.parse(last);
}

/** Programs of 5 stdio tests per second on a warm sandbox. */
async function throughput(dist, runs) {
  const { createCodeSandbox } = await import(pathToFileURL(resolve(dist, 'index.js')).href);
  const sandbox = createCodeSandbox();
  const program = {
    language: 'javascript',
    code: 'const [a, b] = input.trim().split(" ").map(Number);\nconsole.log(a + b);\n',
  };
  const tests = Array.from({ length: 5 }, (_, i) => ({
    kind: 'stdio',
    stdin: `${i} ${i + 1}\n`,
    expected_stdout: `${2 * i + 1}\n`,
  }));
  await sandbox.runTests(program, tests);
  const start = performance.now();
  for (let i = 0; i < runs; i++) await sandbox.runTests(program, tests);
  const ms = performance.now() - start;
  await sandbox.close();
  return (runs / ms) * 1000;
}

export async function quickjsLimitsSection({ quick, before, dist }) {
  const rows = [];
  const mb = (bytes) => (Number.isNaN(bytes) ? '—' : `${fmt(bytes / 2 ** 20, 0)} MB`);
  const s = (ms) => (Number.isNaN(ms) ? '—' : `${fmt(ms / 1000, 2)} s`);
  for (const [name, code] of quick ? BOMBS.slice(0, 2) : BOMBS) {
    const now = bomb(dist, code);
    const then = before ? bomb(before, code) : undefined;
    rows.push(
      `| ${name} | ${mb(now.grew)} | ${s(now.ms)} | ${now.status} |${then ? ` ${mb(then.grew)} | ${s(then.ms)} | ${then.status} |` : ''}`,
    );
  }
  const runs = quick ? 50 : 300;
  const rate = await throughput(dist, runs);
  const previousRate = before ? await throughput(before, runs) : undefined;
  const beforeHead = before
    ? ` previous build (\`--before ${before}\`): host grew by | verdict after | status |`
    : '';
  return `## QuickJS limits (512 MB and 3 s per test, one bomb per fresh process)

| program | host grew by | verdict after | status |${beforeHead}
|---|---:|---:|---|${before ? '---:|---:|---|' : ''}
${rows.join('\n')}

Warm throughput of a JavaScript program of 5 stdio tests: ${fmt(rate, 1)} programs/s${previousRate === undefined ? '' : `, previous build ${fmt(previousRate, 1)} programs/s (${fmt(rate / previousRate, 2)}×)`}.

"host grew by" is the process's peak resident memory over its resident memory before the bomb, with the sandbox warm; "verdict after" includes starting a worker when the previous program's was retired.`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--before');
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.stdout.write(
    `${await quickjsLimitsSection({
      quick: process.argv.includes('--quick'),
      before: at > 0 ? process.argv[at + 1] : undefined,
      dist: resolve(root, 'dist'),
    })}\n`,
  );
}
