import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

/**
 * Faults on the throwaway cluster, for the tests of what rewardkit does under them; absent for an
 * external server (`REWARDKIT_TEST_POSTGRES_URL`), which a test must not stop.
 */
export interface TestPostgresFaults {
  /** Fast shutdown (`pg_ctl stop -m fast`): connections cut, new ones refused. */
  shutDown(): Promise<void>;
  /** Starts the server again on the same data and port; resolves once it accepts connections. */
  startAgain(): Promise<void>;
  /** SIGSTOP to the server and every backend: connections stay open and nothing answers. */
  freeze(): void;
  /** SIGCONT to the same processes. */
  thaw(): void;
}

/** A PostgreSQL server for one test file, or why there is none. */
export type TestPostgres =
  | {
      readonly available: true;
      /** A fresh, empty database on the server; dropped by `stop`. */
      createDatabase(): Promise<string>;
      readonly faults: TestPostgresFaults | undefined;
      stop(): Promise<void>;
    }
  | { readonly available: false; readonly reason: string; stop(): Promise<void> };

const SUPERUSER = 'rewardkit';

/**
 * Starts a throwaway PostgreSQL cluster (Debian's server binaries, `initdb` into a temp dir,
 * listening on a free port of 127.0.0.1 and a socket in that dir), or uses the server at
 * `REWARDKIT_TEST_POSTGRES_URL`. Never throws: when no server can be had it says why, once, and
 * the caller skips its PostgreSQL tests.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const external = process.env.REWARDKIT_TEST_POSTGRES_URL;
  const started:
    | { url: string; stop: () => Promise<void>; faults?: TestPostgresFaults }
    | { reason: string } = external ? { url: external, stop: async () => {} } : await startCluster();
  if ('reason' in started) {
    process.stderr.write(`[postgres tests skipped] ${started.reason}\n`);
    return { available: false, reason: started.reason, stop: async () => {} };
  }
  // The admin client connects per use, so a server restarted by a fault test still serves it.
  const adminQuery = async (text: string) => {
    const admin = new pg.Client({ connectionString: started.url });
    // Stopping the server ends this connection; that is expected, not an uncaught error.
    admin.on('error', () => {});
    try {
      await admin.connect();
      await admin.query(text);
    } finally {
      await admin.end().catch(() => {});
    }
  };
  try {
    await adminQuery('SELECT 1');
  } catch (error) {
    await started.stop();
    const reason = `cannot connect to ${external ? 'REWARDKIT_TEST_POSTGRES_URL' : 'the test cluster'}: ${(error as Error).message}`;
    process.stderr.write(`[postgres tests skipped] ${reason}\n`);
    return { available: false, reason, stop: async () => {} };
  }
  const created: string[] = [];
  return {
    available: true,
    faults: started.faults,
    async createDatabase() {
      const name = `rk_test_${randomBytes(6).toString('hex')}`;
      await adminQuery(`CREATE DATABASE ${name}`);
      created.push(name);
      const url = new URL(started.url);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      started.faults?.thaw();
      for (const name of created) {
        await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      }
      await started.stop();
    },
  };
}

async function startCluster(): Promise<
  { url: string; stop: () => Promise<void>; faults: TestPostgresFaults } | { reason: string }
> {
  const bin = findServerBinaries();
  if (!bin) {
    return {
      reason:
        'no PostgreSQL server binaries in /usr/lib/postgresql/*/bin (apt-get install postgresql), and REWARDKIT_TEST_POSTGRES_URL is not set',
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'rk-pg-'));
  const data = join(dir, 'data');
  // PostgreSQL refuses to run as root; run it as the `postgres` (or `nobody`) user instead.
  const runAs = userInfo().uid === 0 ? unprivilegedUser() : undefined;
  if (userInfo().uid === 0 && !runAs) {
    rmSync(dir, { recursive: true, force: true });
    return {
      reason: 'running as root and neither a "postgres" nor a "nobody" user exists to run the server',
    };
  }
  if (runAs) chownSync(dir, runAs.uid, runAs.gid);
  const command = (program: string, args: string[]): [string, string[]] =>
    runAs
      ? [
          'setpriv',
          [`--reuid=${runAs.uid}`, `--regid=${runAs.gid}`, '--clear-groups', '--', program, ...args],
        ]
      : [program, args];
  try {
    const [initdb, initArgs] = command(join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      SUPERUSER,
      '--auth=trust',
      '--encoding=UTF8',
      '--no-sync',
    ]);
    execFileSync(initdb, initArgs, { stdio: 'pipe', cwd: dir });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    return { reason: `initdb failed: ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}` };
  }
  const port = await freePort();
  const [postgres, args] = command(join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    dir,
    '-c',
    'listen_addresses=127.0.0.1',
    // A throwaway cluster: durability costs time and buys nothing here.
    '-c',
    'fsync=off',
    '-c',
    'synchronous_commit=off',
    '-c',
    'full_page_writes=off',
  ]);
  let log = '';
  const launch = () => {
    const launched = spawn(postgres, args, { stdio: ['ignore', 'ignore', 'pipe'], cwd: dir });
    launched.stderr?.on('data', (d) => (log += d));
    return launched;
  };
  let server = launch();
  const kill = () => server.kill('SIGINT');
  process.once('exit', kill);
  const stop = async () => {
    process.off('exit', kill);
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  };
  const url = `postgres://${SUPERUSER}@127.0.0.1:${port}/postgres`;
  if (!(await waitUntilReady(url, server))) {
    await stop();
    return { reason: `the test cluster did not start: ${log.trim().split('\n').slice(-3).join(' | ')}` };
  }
  // The postmaster and its backends (setpriv execs postgres, so the child's pid is the postmaster's).
  const processes = () => [server.pid as number, ...childPids(server.pid as number)];
  const faults: TestPostgresFaults = {
    shutDown: () => stopServer(server),
    async startAgain() {
      server = launch();
      if (!(await waitUntilReady(url, server)))
        throw new Error(`the test cluster did not start again: ${log}`);
    },
    freeze: () => {
      for (const pid of processes()) signal(pid, 'SIGSTOP');
    },
    thaw: () => {
      for (const pid of processes()) signal(pid, 'SIGCONT');
    },
  };
  return { url, stop, faults };
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { stdio: 'pipe' })
      .toString()
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((child) => child > 0);
  } catch {
    // ps exits 1 when there is no child.
    return [];
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone already (a backend that ended).
  }
}

function findServerBinaries(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, 'bin', 'postgres')) && existsSync(join(root, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

function unprivilegedUser(): { uid: number; gid: number } | undefined {
  for (const name of ['postgres', 'nobody']) {
    try {
      const uid = Number(execFileSync('id', ['-u', name], { stdio: 'pipe' }).toString().trim());
      const gid = Number(execFileSync('id', ['-g', name], { stdio: 'pipe' }).toString().trim());
      if (uid > 0) return { uid, gid };
    } catch {}
  }
  return undefined;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

async function waitUntilReady(url: string, server: ChildProcess): Promise<boolean> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && server.exitCode === null) {
    const client = new pg.Client({ connectionString: url });
    try {
      await client.connect();
      await client.end();
      return true;
    } catch {
      await client.end().catch(() => {});
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return false;
}

function stopServer(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null || server.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => server.kill('SIGKILL'), 10_000);
    server.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    // SIGINT is PostgreSQL's fast shutdown: disconnect clients, stop at once.
    server.kill('SIGINT');
  });
}
