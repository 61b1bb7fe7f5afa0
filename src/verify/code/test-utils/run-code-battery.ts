import { existsSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CodeSandbox } from '../code-sandbox.js';
import { bubblewrapWorks } from '../python-runner.js';
import { LANGUAGE_RECIPES, missingToolchain } from '../run-code-languages.js';
import type { RunCodeRequest } from '../sandbox-fusion.js';

export const hasBwrap = bubblewrapWorks();

/** Whether `language` can run here: bubblewrap works and its toolchain is installed. */
export const present = (language: string): boolean => {
  const recipe = LANGUAGE_RECIPES[language];
  return hasBwrap && recipe !== undefined && missingToolchain(language, recipe) === undefined;
};

export const b64 = (text: string): string => Buffer.from(text).toString('base64');

/** A host file programs must not read, and a host path they must not write. */
export const HOST_FILE = `${process.cwd()}/package.json`;
export const MARKER = `/tmp/rewardkit-run-code-escape-${process.pid}`;

/**
 * A TCP service on the host's loopback for the enclosing `describe` (started before its tests,
 * closed after): a sandboxed program must never reach it, and `connections` says if one did.
 */
export function hostLoopbackService(): { readonly port: number; readonly connections: number } {
  let server: Server;
  let port = 0;
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections++;
      socket.end('secret');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    get port() {
      return port;
    },
    get connections() {
      return connections;
    },
  };
}

/**
 * The same attacks in every language: each program prints ESCAPED only if the attack worked.
 * `port` is a TCP service the test runs on the host's loopback.
 */
export interface Battery {
  readonly echo: string; // reads one line of stdin, prints it upper-cased; exits 3 if it is "exit"
  readonly network: (port: number) => string;
  readonly hostFile: string;
  readonly writeHost: string;
  readonly forkBomb: string;
  readonly memory: string; // touches 1 GB
  readonly spin: string;
  readonly closeAndSleep: string;
  /**
   * Seconds the echo programs, and the network and file attacks, may take (runtimes that start
   * slowly, such as the JVM, or compile in the run, as kotlin_script does, need more).
   */
  readonly echoTimeoutS?: number;
}

/**
 * The escape battery: for each language whose toolchain is here, the same attacks (network,
 * host files, fork and memory bombs, endless loops, a program that closes its pipes and sleeps)
 * and the same stdin/exit-code contract, through `sandbox.runCode`.
 */
export function escapeBattery(
  sandbox: CodeSandbox,
  languages: ReadonlyArray<readonly [string, Battery]>,
): void {
  const host = hostLoopbackService();

  const run = (language: string, code: string, extra: Partial<RunCodeRequest> = {}) =>
    sandbox.runCode({ code, language, run_timeout: 1, ...extra });

  for (const [language, battery] of languages) {
    describe.skipIf(!present(language))(`/run_code ${language} under bubblewrap`, () => {
      test('should run with stdin and answer Success with exit code 0', async () => {
        const result = await run(language, battery.echo, {
          stdin: 'hello\n',
          run_timeout: battery.echoTimeoutS ?? 10,
        });
        expect(result).toMatchObject({
          status: 'Success',
          message: '',
          run_result: { status: 'Finished', return_code: 0, stdout: 'HELLO\n', stderr: '' },
          files: {},
        });
      });

      test('should report a non-zero exit as Finished with its code, and the run as Failed', async () => {
        const result = await run(language, battery.echo, {
          stdin: 'exit\n',
          run_timeout: battery.echoTimeoutS ?? 10,
        });
        expect(result).toMatchObject({
          status: 'Failed',
          message: '',
          run_result: { status: 'Finished', return_code: 3, stderr: 'bye\n' },
        });
      });

      test('should not reach a service on the host loopback', async () => {
        const result = await run(language, battery.network(host.port), {
          run_timeout: battery.echoTimeoutS ?? 5,
        });
        expect(result.run_result?.stdout).toBe('blocked\n');
        expect(host.connections).toBe(0);
      });

      test('should not read host files', async () => {
        const result = await run(language, battery.hostFile, { run_timeout: battery.echoTimeoutS ?? 5 });
        expect(result.run_result?.stdout).toBe('blocked\n');
      });

      test('should not write host files', async () => {
        rmSync(MARKER, { force: true });
        const result = await run(language, battery.writeHost, { run_timeout: battery.echoTimeoutS ?? 5 });
        expect(result.run_result?.stdout).toBe('blocked\n');
        expect(existsSync(MARKER)).toBe(false);
        expect(existsSync('/usr/rewardkit-evil')).toBe(false);
      });

      test('should contain a fork bomb and stay usable', async () => {
        const result = await run(language, battery.forkBomb);
        // However the bomb ends (the time limit, or its shell returning), every process it made is killed.
        expect(['Success', 'Failed']).toContain(result.status);
        expect(
          await run(language, battery.echo, { stdin: 'ok\n', run_timeout: battery.echoTimeoutS ?? 10 }),
        ).toMatchObject({
          status: 'Success',
        });
      });

      test('should stop a program past its memory limit', async () => {
        const result = await run(language, battery.memory, { memory_limit_MB: 128, run_timeout: 10 });
        expect(result.status).toBe('Failed');
        expect(result.run_result?.stdout).not.toContain('ESCAPED');
      });

      test('should end an endless loop at run_timeout as TimeLimitExceeded', async () => {
        const result = await run(language, battery.spin, { run_timeout: 0.5 });
        expect(result).toMatchObject({
          status: 'Failed',
          run_result: { status: 'TimeLimitExceeded', return_code: null },
        });
      });

      test('should keep the deadline after the program closes stdout and stderr', async () => {
        const result = await run(language, battery.closeAndSleep, { run_timeout: 0.5 });
        expect(result).toMatchObject({ status: 'Failed', run_result: { status: 'TimeLimitExceeded' } });
      });
    });
  }
}
