import { describe, expect, test } from 'vitest';
import { failedResult } from '../core/index.js';
import { openSqliteStore } from '../store/index.js';
import { finishCheckedRun } from './finish-checked-run.js';

async function runWithResults(count: number) {
  const store = openSqliteStore(':memory:');
  const run = await store.createRun({ spec_name: 'math', spec: {} });
  const results = Array.from({ length: count }, (_, i) => failedResult(`r${i}`, ['no response']));
  await store.saveResults(run.id, results);
  return { store, runId: run.id };
}

const finish = { summary: { rows: 3 }, interrupted: false, outputName: 'out.jsonl', sources: undefined };

describe('finishCheckedRun', () => {
  test('should mark a run finished when the store holds as many results as the output', async () => {
    const { store, runId } = await runWithResults(3);
    await finishCheckedRun(store, runId, { ...finish, outputRows: 3 });
    expect(await store.getRun(runId)).toMatchObject({ status: 'finished', summary: { rows: 3 } });
    await store.close();
  });

  test("should keep the store's totals over every session in a finished run's summary", async () => {
    const { store, runId } = await runWithResults(5);
    // The last session scored 2 rows; the output holds the 3 an earlier one wrote as well.
    await finishCheckedRun(store, runId, { ...finish, summary: { rows: 2, failed: 2 }, outputRows: 5 });
    expect((await store.getRun(runId))?.summary).toEqual({
      rows: 2,
      failed: 2,
      stored: { results: 5, failed: 5, mean_reward: null },
    });
    await store.close();
  });

  test('should leave a run short of the output interrupted and say so with both counts', async () => {
    const { store, runId } = await runWithResults(3);
    await expect(finishCheckedRun(store, runId, { ...finish, outputRows: 5 })).rejects.toMatchObject({
      code: 'RK_STORE',
      message: `run ${runId} is not finished: the store holds 3 of its results but out.jsonl has 5; it is left "interrupted": run the same command again to store what is missing`,
    });
    expect((await store.getRun(runId))?.status).toBe('interrupted');
    await store.close();
  });

  test('should refuse to finish a run whose store holds results the output lacks', async () => {
    const { store, runId } = await runWithResults(4);
    await expect(finishCheckedRun(store, runId, { ...finish, outputRows: 3 })).rejects.toThrow(
      /holds 4 of its results but out\.jsonl has 3; .*the store has results the output lacks/,
    );
    expect((await store.getRun(runId))?.status).toBe('interrupted');
    await store.close();
  });

  test('should mark an interrupted run interrupted without comparing counts', async () => {
    const { store, runId } = await runWithResults(1);
    await finishCheckedRun(store, runId, { ...finish, interrupted: true, outputRows: 9 });
    expect((await store.getRun(runId))?.status).toBe('interrupted');
    await store.close();
  });
});
