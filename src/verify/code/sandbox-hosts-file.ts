import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The sandbox's /etc/hosts: localhost only, so a program that serves on `localhost` and calls
 * it by name works on the sandbox's own loopback (its network namespace has `lo` and nothing
 * else). The host's own file is not shown: it may name internal machines.
 */
export const SANDBOX_HOSTS = '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n';

let file: string | undefined;

/**
 * The host file bound read-only at the sandbox's /etc/hosts (bubblewrap binds files; it cannot
 * write one from a string without an extra descriptor). Written once per process in a private
 * folder that is removed at exit, and written again if a cleaner emptied the temporary folder.
 */
export function sandboxHostsFile(): string {
  if (file !== undefined && existsSync(file)) return file;
  const folder = mkdtempSync(join(tmpdir(), 'rewardkit-sandbox-'));
  // The sandbox starts as nobody: bubblewrap must be able to reach the file to bind it.
  chmodSync(folder, 0o755);
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  file = join(folder, 'hosts');
  writeFileSync(file, SANDBOX_HOSTS, { mode: 0o644 });
  return file;
}
