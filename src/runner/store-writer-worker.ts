import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../core/index.js';
import { openSqliteStore } from '../store/index.js';
import { openSqliteShard } from '../store/sqlite-shard.js';
import type { StoreWriterReply, StoreWriterRequest, StoreWriterTarget } from './store-writer.js';

// The thread of `startStoreWriter`: its own connection to the SQLite file (or a shard of it),
// saving batches in the order they arrive.
const port = parentPort;
if (!port) throw new Error('store-writer-worker runs only as a worker thread');
const { path, target } = workerData as { path: string; target: StoreWriterTarget };
const opened = target === 'shard' ? openSqliteShard(path) : openSqliteStore(path);
const store =
  'append' in opened ? { saveEncodedResults: opened.append, close: async () => opened.close() } : opened;

port.on('message', async (request: StoreWriterRequest) => {
  if (request.type === 'close') {
    await store.close();
    port.close();
    return;
  }
  try {
    await store.saveEncodedResults(request.runId, request.rows);
    port.postMessage({ id: request.id } satisfies StoreWriterReply);
  } catch (error) {
    port.postMessage({ id: request.id, error: errorMessage(error) } satisfies StoreWriterReply);
  }
});
