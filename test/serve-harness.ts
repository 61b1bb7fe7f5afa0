import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './cli-harness.js';

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  stderr: () => string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends a signal (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `rewardkit serve --port 0 …` from the build and waits for the URL line on stdout. */
export function startServe(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [join(repoRoot, 'dist/cli/main.js'), 'serve', '--port', '0', ...args],
    {
      cwd: repoRoot,
      env: { ...process.env, REWARDKIT_STORE: 'none', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr?.on('data', (d) => (stderr += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve did not start: ${stderr}`)), 20_000);
    child.stdout?.on('data', (d) => {
      stdout += d;
      const line = stdout.split('\n')[0];
      if (stdout.includes('\n') && line) {
        clearTimeout(timer);
        resolve({
          url: line.trim(),
          child,
          stderr: () => stderr,
          exited,
          stop: (signal = 'SIGTERM') => {
            if (child.exitCode === null && child.signalCode === null) child.kill(signal);
            return exited;
          },
        });
      }
    });
    exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code} before listening: ${stderr}`));
    });
  });
}

/** POSTs JSON and returns status, headers and the parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
  signal?: AbortSignal,
): Promise<{ status: number; headers: Headers; text: string; json: () => unknown }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal && { signal }),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: () => JSON.parse(text) };
}
