import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repoRoot, tempDir } from './cli-harness.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

// The host may grow by the QuickJS memory limit plus this (the worker thread's own heap, the
// answers' copies) while one program runs: docs/sandbox.md. Before the heap was bounded, these
// programs took 1.5–2.1 GB of host memory under a 128–512 MB limit.
const OVERHEAD_MB = 64;
const MB = 1024 * 1024;

// Each bomb ends on the memory limit (or its own error), long before its time limit.
const BOMBS: ReadonlyArray<readonly [string, string]> = [
  ['array growth', 'const a = []; while (true) a.push(new Array(1e5).fill(1.5));'],
  ['typed arrays', 'const a = []; while (true) a.push(new Float64Array(1e6));'],
  ['nested objects', "let o = {}; while (true) o = { a: o, b: [o, o], c: 'y'.repeat(100) + Math.random() };"],
  ['closures', 'const fs = []; let i = 0; while (true) { const k = i++; fs.push(() => k + fs.length); }'],
  [
    'JSON.stringify of a huge array',
    "const a = new Array(5e6).fill(123456789); const s = JSON.stringify(a); const t = [s, s + '1', s + '2'];",
  ],
  ['string doubling', "let s = 'ab'; const keep = []; while (true) { s = s + s; keep.push(s + '!'); }"],
  ['String.prototype.repeat', "const s = 'abcdefgh'.repeat(3e7); const t = [s + 'y', s + 'z'];"],
  ['a huge thrown string', "throw 'x'.repeat(1e8);"],
  ['a huge printed value', 'console.log(JSON.stringify(new Array(1.2e7).fill(7)));'],
];

/** Runs a script with node in the repository and returns its last stdout line as JSON. */
function runNode(source: string): Promise<Record<string, unknown>> {
  const dir = tempDir();
  const file = join(dir, 'bomb.mjs');
  writeFileSync(file, source);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => {
      const last = stdout.trim().split('\n').at(-1);
      if (code !== 0 || !last) reject(new Error(`exit ${code}: ${stderr}`));
      else resolve(JSON.parse(last) as Record<string, unknown>);
    });
  });
}

/** The peak resident memory (VmHWM) of a running process, in bytes; undefined once it is gone. */
function peakRss(pid: number): number | undefined {
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

function currentRss(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1]) * 1024;
}

describe('QuickJS memory limit, through the library', () => {
  test.each(BOMBS)('should hold %s within the limit and answer memory, never pass', async (_, code) => {
    const limits = { memoryMb: 128, timeoutMs: 30_000 };
    const out = await runNode(`
      import { createCodeSandbox } from ${JSON.stringify(join(repoRoot, 'dist/index.js'))};
      const sandbox = createCodeSandbox();
      const tests = [{ kind: 'stdio', stdin: '', expected_stdout: 'never' }];
      await sandbox.runTests({ language: 'javascript', code: 'console.log(1)' }, tests, ${JSON.stringify(limits)});
      const before = Math.max(process.memoryUsage().rss, process.resourceUsage().maxRSS * 1024);
      const report = await sandbox.runTests({ language: 'javascript', code: ${JSON.stringify(code)} }, tests, ${JSON.stringify(limits)});
      const peak = process.resourceUsage().maxRSS * 1024;
      await sandbox.close();
      console.log(JSON.stringify({ grewBy: peak - before, result: report.results[0] }));
    `);
    const result = out.result as { status: string; reason: string };
    expect(result.status).not.toBe('passed');
    expect(['memory', 'error', 'output_limit']).toContain(result.status);
    // A thrown or printed giant is cut, never copied whole into the result.
    expect(result.reason.length).toBeLessThan(5000);
    expect(out.grewBy as number).toBeLessThan((128 + OVERHEAD_MB) * MB);
  });
});

describe('QuickJS memory limit, through rewardkit verify code', () => {
  test('should keep the CLI within its memory limit (512 MB by default) and report memory', async () => {
    const row = {
      id: 'bomb',
      language: 'javascript',
      response: '```javascript\nconst a = []; while (true) a.push(new Float64Array(1e6));\n```',
      tests: [{ kind: 'stdio', stdin: '', expected_stdout: 'never' }],
    };
    const child = spawn(process.execPath, [join(repoRoot, 'dist/cli/main.js'), 'verify', 'code', '-i', '-'], {
      cwd: repoRoot,
      env: { ...process.env, REWARDKIT_STORE: 'none' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stdin.end(JSON.stringify(row));
    // VmHWM only grows, so the last reading before exit holds the peak.
    let peak = 0;
    const poll = setInterval(() => {
      peak = Math.max(peak, peakRss(child.pid as number) ?? 0);
    }, 10);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(poll);
    expect(code).toBe(0);
    const out = JSON.parse(stdout.trim()) as { passed: number; results: { status: string }[] };
    expect(out.passed).toBe(0);
    expect(out.results[0]?.status).toBe('memory');
    // The CLI's own ~150 MB, the limit, and the overhead; unbounded it reached 2.1 GB.
    expect(peak).toBeGreaterThan(0);
    expect(peak).toBeLessThan((200 + 512 + OVERHEAD_MB) * MB);
  });
});

describe('QuickJS memory limit, through serve', () => {
  let server: ServeProcess;
  beforeAll(async () => {
    const dir = tempDir();
    const spec = join(dir, 'code.yaml');
    writeFileSync(
      spec,
      'name: code-limits\nsources:\n  - kind: code\n    params:\n      language: javascript\n      memory_limit_mb: 128\n      run_timeout_ms: 30000\n',
    );
    server = await startServe(['--spec', spec]);
  });
  afterAll(async () => {
    await server?.stop();
  });

  const sample = (id: string, code: string) => ({
    id,
    response: `\`\`\`javascript\n${code}\n\`\`\``,
    metadata: { tests: [{ kind: 'stdio', stdin: '', expected_stdout: '1' }] },
  });

  test('should score a memory bomb as a failed test with the server inside the limit', async () => {
    const pid = server.child.pid as number;
    const warm = await postJson(`${server.url}/v1/rewards`, { samples: [sample('warm', 'console.log(1)')] });
    expect(warm.status).toBe(200);
    expect((warm.json() as { results: { reward: number }[] }).results[0]?.reward).toBe(1);
    const before = Math.max(currentRss(pid), peakRss(pid) ?? 0);
    const res = await postJson(`${server.url}/v1/rewards`, {
      samples: [sample('bomb', 'const a = []; while (true) a.push(new Float64Array(1e6));')],
    });
    const peak = peakRss(pid) as number;
    expect(res.status).toBe(200);
    const result = (res.json() as { results: { reward: number; evidence: { reason?: string }[] }[] })
      .results[0];
    expect(result?.reward).toBe(0);
    expect(JSON.stringify(result?.evidence)).toMatch(/memory/);
    expect(peak - before).toBeLessThan((128 + OVERHEAD_MB) * MB);
  });
});
