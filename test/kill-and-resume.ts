import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import type { Store } from '../src/store/index.js';
import { type CliRun, readJsonl, runCli } from './cli-harness.js';

/** `n` math rows (`m0`, `m1`, …) whose responses and references make rewards differ row to row. */
export const mathRows = (n: number) =>
  `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `m${i}`, response: `#### ${i % 7}`, reference: String(i % 5) })).join('\n')}\n`;

/** Complete lines in a file (0 while it does not exist). */
function linesIn(path: string): number {
  let text: Buffer;
  try {
    text = readFileSync(path);
  } catch {
    return 0;
  }
  let lines = 0;
  for (let at = text.indexOf(0x0a); at !== -1; at = text.indexOf(0x0a, at + 1)) lines++;
  return lines;
}

/**
 * Runs the CLI and kills it with SIGKILL once `output` holds at least `atLine` lines: a kill at a
 * chosen point of the run, with no chance to drain or close anything.
 */
export function runKilledAt(args: readonly string[], output: string, atLine: number): Promise<CliRun> {
  return runCli(args, {
    onSpawn: (kill) => {
      const poll = setInterval(() => {
        if (linesIn(output) >= atLine) {
          clearInterval(poll);
          kill('SIGKILL');
        }
      }, 5);
      poll.unref();
    },
  });
}

/** The ids of the whole lines of an output a killed run left (a torn last line is not one). */
export function outputIdsAfterKill(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { id: string }).id);
}

/**
 * How many results of the output a killed run left are not in the store's newest run: what a
 * resume must store from the output.
 */
export async function missingFromStore(store: Store, output: string): Promise<number> {
  const [run] = await store.listRuns({ limit: 1 });
  const stored = await store.completedIds(run?.id as string);
  return outputIdsAfterKill(output).filter((id) => !stored.has(id)).length;
}

/**
 * What `score`'s resume guarantees of a run and its store: every result of the output is in the
 * store under the same id with the same status and reward, the store holds nothing else and no
 * id twice, and the run is `finished` with `runs show` and `runs list` counting as many results as
 * the output has (a resumed session's own counts cover only what it scored).
 */
export async function expectStoreMatchesOutput(
  store: Store,
  output: string,
  storeFlag: string,
): Promise<void> {
  const lines = readJsonl(output);
  expect(new Set(lines.map((line) => line.id)).size).toBe(lines.length);
  const [run] = await store.listRuns({ limit: 1 });
  expect(run?.status).toBe('finished');
  const runId = run?.id as string;
  const stored = await store.listResults(runId);
  expect(stored.length).toBe(lines.length);
  const byId = new Map(stored.map((result) => [result.id, result]));
  expect(byId.size).toBe(stored.length);
  const missing = lines.filter((line) => !byId.has(line.id as string)).map((line) => line.id);
  expect(missing).toEqual([]);
  for (const line of lines) {
    const result = byId.get(line.id as string);
    expect({ id: result?.id, status: result?.status, reward: result?.reward }).toEqual({
      id: line.id,
      status: line.status,
      reward: line.reward,
    });
  }
  const shown = await runCli(['runs', 'show', runId, '--store', storeFlag]);
  expect(shown.code).toBe(0);
  const detail = JSON.parse(shown.stdout) as { status: string; stored: { results: number } };
  expect(detail.status).toBe('finished');
  expect(detail.stored.results).toBe(lines.length);
  const listed = await runCli(['runs', 'list', '--store', storeFlag]);
  expect(listed.stdout.split('\n').find((line) => line.startsWith(runId))).toContain(
    ` rows=${lines.length} `,
  );
}

/**
 * One trial of kill and resume: runs `args`, kills it with SIGKILL once `output` holds `atLine`
 * lines, resumes it with the same arguments and checks that the output holds `rows` results in
 * input order (ids `${idPrefix}0`…), that the resume says how many it stored from the output, and
 * that the store matches the output (expectStoreMatchesOutput). The store is opened anew for each
 * look, so a SQLite file is never held open while the CLI writes it. Returns the output's lines.
 */
export async function expectKilledRunResumes(trial: {
  readonly args: readonly string[];
  readonly output: string;
  readonly atLine: number;
  readonly rows: number;
  readonly idPrefix: string;
  readonly storeFlag: string;
  readonly openStore: () => Store | Promise<Store>;
}): Promise<Record<string, unknown>[]> {
  const { args, output, atLine, rows, idPrefix, storeFlag, openStore } = trial;
  const killed = await runKilledAt(args, output, atLine);
  expect(killed.signal).toBe('SIGKILL');
  expect(outputIdsAfterKill(output).length).toBeLessThan(rows);
  const short = await openStore();
  const missing = await missingFromStore(short, output).finally(() => short.close());

  const resumed = await runCli(args);
  expect(resumed.stderr).not.toMatch(/\n\s+at /);
  expect(resumed.code).toBe(0);
  if (missing > 0) expect(resumed.stderr).toContain(`stored ${missing} result`);
  const lines = readJsonl(output);
  expect(lines.map((line) => line.id)).toEqual(Array.from({ length: rows }, (_, i) => `${idPrefix}${i}`));
  const store = await openStore();
  try {
    await expectStoreMatchesOutput(store, output, storeFlag);
  } finally {
    await store.close();
  }
  return lines;
}
