import type Database from 'better-sqlite3';
import { optionalPackageError, requireOptional } from '../core/index.js';

let loaded: typeof Database | undefined;

/**
 * better-sqlite3, required when a SQLite file is first opened rather than imported with the
 * store: npm leaves the package out when its native build fails, and every command that stores
 * nothing (`--store none`, `verify`, a `serve` without a store) must still run then. The native
 * addon loads only with the first database, so an in-memory one is opened here: a binary built
 * for another Node or platform fails now, as this part's one error, not later as a store error.
 */
export function loadBetterSqlite3(): typeof Database {
  if (loaded) return loaded;
  const BetterSqlite3 = requireOptional<typeof Database>('sqlite', 'better-sqlite3');
  try {
    new BetterSqlite3(':memory:').close();
  } catch (error) {
    throw optionalPackageError('sqlite', error);
  }
  loaded = BetterSqlite3;
  return BetterSqlite3;
}
