import { existsSync } from 'node:fs';
import { RewardKitError } from '../core/index.js';
import { openPostgresStore, openSqliteStore, type Store } from '../store/index.js';
import { parseDuration } from './parse-duration.js';

/** Where results go when neither --store nor REWARDKIT_STORE says otherwise. */
export const DEFAULT_STORE = '.rewardkit/store.sqlite';

/** What `--store` accepts, for help texts. */
export const STORE_FLAG_HELP =
  'SQLite file, ":memory:", a postgres:// URL, or "none" (default: $REWARDKIT_STORE or .rewardkit/store.sqlite)';

/**
 * Opens the store a command should write to: `--store` wins, then `REWARDKIT_STORE`, then the
 * default file in the working directory. `none` turns storing off; a `postgres://` or
 * `postgresql://` URL opens the shared PostgreSQL store, anything else is a SQLite file.
 */
export async function openStoreFromFlag(flag: string | undefined): Promise<Store | undefined> {
  const location = flag ?? process.env.REWARDKIT_STORE ?? DEFAULT_STORE;
  if (location === 'none') return undefined;
  if (/^postgres(ql)?:\/\//i.test(location)) return openPostgresStore(location, postgresOptions());
  return openSqliteStore(location, leaseOption());
}

/**
 * `REWARDKIT_RUN_LEASE`: how long a running run may go without its process's heartbeat before it
 * is closed as interrupted. A duration such as `30s`, `2m`.
 */
function leaseOption(): { leaseMs?: number } {
  const leaseMs = envDuration('REWARDKIT_RUN_LEASE');
  return leaseMs === undefined ? {} : { leaseMs };
}

/** A PostgreSQL store's options: the lease, and `REWARDKIT_STORE_TIMEOUT` (longest one statement may run). */
function postgresOptions(): { leaseMs?: number; statementTimeoutMs?: number } {
  const statementTimeoutMs = envDuration('REWARDKIT_STORE_TIMEOUT');
  return { ...leaseOption(), ...(statementTimeoutMs !== undefined && { statementTimeoutMs }) };
}

function envDuration(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value.trim() === '') return undefined;
  try {
    return parseDuration(name)(value);
  } catch (error) {
    throw new RewardKitError('RK_USAGE', (error as Error).message);
  }
}

/**
 * Opens the store a reader (`rewardkit view`) inspects, from the same places: a SQLite file must
 * exist, and is opened read-only at this rewardkit's schema unless `writable` (labels are written).
 */
export async function openStoreForReading(
  flag: string | undefined,
  options: { writable?: boolean } = {},
): Promise<Store> {
  const location = flag ?? process.env.REWARDKIT_STORE ?? DEFAULT_STORE;
  if (location === 'none' || location === ':memory:') {
    throw new RewardKitError(
      'RK_USAGE',
      `--store ${location} holds no runs to read; name a SQLite file or a postgres:// URL`,
    );
  }
  if (/^postgres(ql)?:\/\//i.test(location)) return openPostgresStore(location, postgresOptions());
  if (!existsSync(location)) {
    // A missing file a flag names is a usage error (exit 2), as for every other input flag.
    throw new RewardKitError(
      'RK_USAGE',
      `No store at ${location}; score something first (rewardkit score … writes it) or point --store (or REWARDKIT_STORE) at one`,
    );
  }
  return openSqliteStore(location, options.writable ? leaseOption() : { readonly: true });
}
