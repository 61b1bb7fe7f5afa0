import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../core/index.js';
import { openSqliteStore } from '../store/index.js';
import type { StoreWriterReply, StoreWriterRequest } from './store-writer.js';

// The thread of `startStoreWriter`: its own connection to the SQLite file, saving batches in the
// order they arrive.
const port = parentPort;
if (!port) throw new Error('store-writer-worker runs only as a worker thread');
const store = openSqliteStore((workerData as { path: string }).path);

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
