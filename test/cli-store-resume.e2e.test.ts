import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createRng } from '../src/core/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { runCli, tempDir } from './cli-harness.js';
import { expectKilledRunResumes, mathRows } from './kill-and-resume.js';
import { medicalJudgeRun } from './medical-judge-run.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const ROWS = 4000;

describe('rewardkit score: killed with SIGKILL and resumed, nothing is lost in the store', () => {
  // The kill points come from a seeded generator: the same trials on every run. The fourth scores
  // on worker threads, whose chunks reach the output and the store by another path.
  const rng = createRng(27);
  const trials = [1, 2, 3, 4].map((trial) => ({
    trial,
    atLine: rng.int(200, ROWS - 600),
    workers: trial === 4 ? 2 : 0,
    scoring: trial === 4 ? '2 worker threads' : 'the main thread',
  }));

  test.each(trials)(
    'trial $trial (on $scoring): killed at line $atLine of the output, a resumed SQLite run stores every output row',
    async ({ atLine, workers }) => {
      const dir = tempDir();
      const input = join(dir, 'in.jsonl');
      const out = join(dir, 'out.jsonl');
      const store = join(dir, 'store.sqlite');
      writeFileSync(input, mathRows(ROWS));
      const args = ['score', '--spec', 'math', '-i', input, '-o', out, '--store', store, '-c', '1'];
      args.push('--workers', String(workers));

      await expectKilledRunResumes({
        args,
        output: out,
        atLine,
        rows: ROWS,
        idPrefix: 'm',
        storeFlag: store,
        openStore: () => openSqliteStore(store, { readonly: true }),
      });
    },
    60_000,
  );
});

describe('rewardkit score: a run whose output and store disagree is not finished', () => {
  test('should fail loudly and leave the run interrupted when the store holds results the output lacks', async () => {
    const dir = tempDir();
    const input = join(dir, 'in.jsonl');
    const out = join(dir, 'out.jsonl');
    const store = join(dir, 'store.sqlite');
    writeFileSync(input, mathRows(10));
    const args = ['score', '--spec', 'math', '-i', input, '-o', out, '--store', store];
    const first = await runCli(args);
    expect(first.code).toBe(0);
    const runId = /run\s+(\S+)/.exec(first.stdout)?.[1] as string;

    // Four rows leave the input and the output after the run; the store still holds them.
    writeFileSync(input, mathRows(6));
    const kept = readFileSync(out, 'utf8').split('\n').slice(0, 6);
    writeFileSync(out, `${kept.join('\n')}\n`);
    const again = await runCli(args);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe(
      `rewardkit: run ${runId} is not finished: the store holds 10 of its results but ${out} has 6; it is left "interrupted": the store has results the output lacks (did the input lose rows since the run began?); score into a new output, or again with --no-resume\n`,
    );
    const shown = JSON.parse((await runCli(['runs', 'show', runId, '--store', store])).stdout);
    expect(shown).toMatchObject({ status: 'interrupted', stored: { results: 10 } });
  });
});

const JUDGED_ROWS = 300;

describe('rewardkit judge <kind>: killed with SIGKILL and resumed, nothing is lost in the store', () => {
  const server = scriptedServerPerTest();
  const rng = createRng(2027);
  const trials = [1, 2, 3].map((trial) => ({ trial, atLine: rng.int(20, JUDGED_ROWS - 120) }));

  test.each(trials)(
    'trial $trial: killed at line $atLine of the output, a resumed judge run stores every output row',
    async ({ atLine }) => {
      const dir = tempDir();
      const out = join(dir, 'out.jsonl');
      const store = join(dir, 'store.sqlite');
      const args = medicalJudgeRun(server, { dir, rows: JUDGED_ROWS, out, store });

      const lines = await expectKilledRunResumes({
        args,
        output: out,
        atLine,
        rows: JUDGED_ROWS,
        idPrefix: 'q',
        storeFlag: store,
        openStore: () => openSqliteStore(store, { readonly: true }),
      });
      expect(new Set(lines.map((line) => line.reward)).size).toBe(2);
    },
    60_000,
  );
});
