import { workerData } from 'node:worker_threads';
import { loadBetterSqlite3 } from './load-better-sqlite3.js';
import { COMMITS, GAP_MS, STOP } from './sqlite-checkpointer.js';

// The thread of `startSqliteCheckpointer`: sleeps until a commit is signalled, checkpoints whatever
// the log holds, then rests a moment (waking early to stop). PASSIVE never waits for the writer or
// readers; what it cannot copy yet, the next round does.
const { path, signal } = workerData as { path: string; signal: Int32Array };
const Database = loadBetterSqlite3();
const db = new Database(path, { fileMustExist: true });
db.pragma('synchronous = NORMAL');
let seen = 0;
for (;;) {
  Atomics.wait(signal, COMMITS, seen);
  // Read the count before the stop flag: stop() sets the flag, then counts, so a stop made after
  // this read still changes the count and the next wait returns at once.
  seen = Atomics.load(signal, COMMITS);
  if (Atomics.load(signal, STOP) === 1) break;
  db.pragma('wal_checkpoint(PASSIVE)');
  // A checkpoint per commit syncs both files each time: at most one per GAP_MS costs this thread
  // less than half as much and leaves the writer no more to copy (measured with the primary as
  // the one writer of `serve --processes`, before its copies had shards; BENCHMARKS.md).
  Atomics.wait(signal, STOP, 0, GAP_MS);
}
db.close();
