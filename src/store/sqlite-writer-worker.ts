import { parentPort, workerData } from 'node:worker_threads';
import { openSqliteStore } from './sqlite-store.js';
import type { WriterReply, WriterRequest } from './sqlite-writer-thread.js';

// The writer thread: its own connection to the store file, saving each batch it is sent in one
// transaction and answering once it has committed. Waiting for another process's write lock
// happens here, off the event loop of the thread that answers requests.
const store = openSqliteStore((workerData as { path: string }).path);
const port = parentPort as NonNullable<typeof parentPort>;
// One request at a time, in the order sent: a save waiting for the lock holds back the next.
let turn = Promise.resolve();
port.on('message', (request: WriterRequest) => {
  turn = turn.then(() => handle(request));
});

async function handle(request: WriterRequest): Promise<void> {
  if (request.type === 'close') {
    await store.close();
    port.close();
    return;
  }
  let reply: WriterReply;
  try {
    await store.saveResults(request.runId, request.results, request.options);
    reply = { id: request.id };
  } catch (error) {
    const e = error as { message?: string; code?: string };
    reply = { id: request.id, error: { message: e.message ?? String(error), code: e.code } };
  }
  port.postMessage(reply);
}
