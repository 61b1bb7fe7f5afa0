import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../core/index.js';
import { MERGER_HEARTBEAT_MS, mergerHeartbeatKey } from './sqlite-shard.js';
import {
  BEHIND_EVERY_MS,
  MERGER_IDLE_MS,
  MERGER_STOP,
  type ShardMergerMessage,
} from './sqlite-shard-merger.js';
import { openSqliteStore } from './sqlite-store.js';

// The thread of `startShardMerger`: merges the run's shards until told to stop, then makes one
// last pass after every copy has closed its shard, so that the pass leaves nothing behind.
const port = parentPort;
if (!port) throw new Error('sqlite-shard-merger-worker runs only as a worker thread');
const { path, runId, signal, behindPassSeconds } = workerData as {
  path: string;
  runId: string;
  signal: Int32Array;
  behindPassSeconds: number;
};
const post = (message: ShardMergerMessage) => port.postMessage(message);
const store = openSqliteStore(path, { recoverShards: false });
let lastBehind = Number.NEGATIVE_INFINITY;
let lastBeat = Number.NEGATIVE_INFINITY;
for (;;) {
  const last = Atomics.load(signal, MERGER_STOP) === 1;
  const started = performance.now();
  let count = 0;
  try {
    count = await store.mergeShards(runId);
  } catch (error) {
    post({ type: 'error', message: `merging the shards of run ${runId} failed: ${errorMessage(error)}` });
    if (last) break;
    // A shard that cannot be read now (damaged, locked past the wait): rest, then try again.
    Atomics.wait(signal, MERGER_STOP, 0, 1000);
    continue;
  }
  if (last) {
    post({ type: 'done', lastPass: { merged: count, seconds: (performance.now() - started) / 1000 } });
    break;
  }
  if (count > 0) post({ type: 'merged', count });
  if (performance.now() - lastBeat >= MERGER_HEARTBEAT_MS) {
    lastBeat = performance.now();
    await store.putState(mergerHeartbeatKey(runId), Date.now()).catch(() => {
      // A missed beat only lets another process's open merge beside this thread: safe.
    });
  }
  const seconds = (performance.now() - started) / 1000;
  // A long pass means the copies answer faster than one writer merges: say so, now and then.
  if (count > 0 && seconds >= behindPassSeconds && performance.now() - lastBehind >= BEHIND_EVERY_MS) {
    lastBehind = performance.now();
    post({ type: 'behind', merged: count, seconds });
  }
  if (count === 0) Atomics.wait(signal, MERGER_STOP, 0, MERGER_IDLE_MS);
}
await store.close();
