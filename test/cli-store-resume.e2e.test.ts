import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { createRng } from '../src/core/index.js';
import { openSqliteStore } from '../src/store/index.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import {
  expectStoreMatchesOutput,
  missingFromStore,
  outputIdsAfterKill,
  runKilledAt,
} from './kill-and-resume.js';

const ROWS = 4000;

const mathRows = (n: number) =>
  `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `m${i}`, response: `#### ${i % 7}`, reference: String(i % 5) })).join('\n')}\n`;

describe('rewardkit score: killed with SIGKILL and resumed, nothing is lost in the store', () => {
  // The kill points come from a seeded generator: the same three trials on every run.
  const rng = createRng(27);
  const trials = [1, 2, 3].map((trial) => ({ trial, atLine: rng.int(200, ROWS - 600) }));

  test.each(trials)(
    'trial $trial: killed at line $atLine of the output, a resumed SQLite run stores every output row',
    async ({ atLine }) => {
      const dir = tempDir();
      const input = join(dir, 'in.jsonl');
      const out = join(dir, 'out.jsonl');
      const store = join(dir, 'store.sqlite');
      writeFileSync(input, mathRows(ROWS));
      const args = ['score', '--spec', 'math', '-i', input, '-o', out, '--store', store, '-c', '1'];

      const killed = await runKilledAt(args, out, atLine);
      expect(killed.signal).toBe('SIGKILL');
      expect(outputIdsAfterKill(out).length).toBeLessThan(ROWS);
      const short = openSqliteStore(store, { readonly: true });
      const missing = await missingFromStore(short, out).finally(() => short.close());

      const resumed = await runCli(args);
      expect(resumed.stderr).not.toMatch(/\n\s+at /);
      expect(resumed.code).toBe(0);
      if (missing > 0) expect(resumed.stderr).toContain(`stored ${missing} result`);
      expect(readJsonl(out).map((line) => line.id)).toEqual(Array.from({ length: ROWS }, (_, i) => `m${i}`));
      const opened = openSqliteStore(store, { readonly: true });
      try {
        await expectStoreMatchesOutput(opened, out, store);
      } finally {
        await opened.close();
      }
    },
    60_000,
  );
});
