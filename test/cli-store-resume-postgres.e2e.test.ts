import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, test } from 'vitest';
import { createRng } from '../src/core/index.js';
import { openPostgresStore } from '../src/store/index.js';
import { startTestPostgres } from '../src/store/test-utils/start-test-postgres.js';
import { tempDir } from './cli-harness.js';
import { expectKilledRunResumes, mathRows } from './kill-and-resume.js';
import { medicalJudgeRun } from './medical-judge-run.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = await startTestPostgres();
afterAll(() => server.stop());

const ROWS = 4000;

describe.skipIf(!server.available)(
  'rewardkit score with a PostgreSQL store: killed with SIGKILL and resumed, nothing is lost',
  () => {
    // The kill points come from a seeded generator: the same three trials on every run.
    const rng = createRng(1527);
    const trials = [1, 2, 3].map((trial) => ({ trial, atLine: rng.int(200, ROWS - 600) }));

    test.each(trials)(
      'trial $trial: killed at line $atLine of the output, a resumed run stores every output row',
      async ({ atLine }) => {
        if (!server.available) return;
        const url = await server.createDatabase();
        const dir = tempDir();
        const input = join(dir, 'in.jsonl');
        const out = join(dir, 'out.jsonl');
        writeFileSync(input, mathRows(ROWS));
        const args = ['score', '--spec', 'math', '-i', input, '-o', out, '--store', url, '-c', '1'];

        await expectKilledRunResumes({
          args,
          output: out,
          atLine,
          rows: ROWS,
          idPrefix: 'm',
          storeFlag: url,
          openStore: () => openPostgresStore(url, { maxConnections: 2 }),
        });
      },
      120_000,
    );
  },
);

describe.skipIf(!server.available)(
  'rewardkit judge <kind> with a PostgreSQL store: killed with SIGKILL and resumed, nothing is lost',
  () => {
    const scripted = scriptedServerPerTest();
    const rows = 300;
    const atLine = createRng(2715).int(20, rows - 120);

    test(`should store every output row of a judge run killed at line ${atLine} and resumed`, async () => {
      if (!server.available) return;
      const url = await server.createDatabase();
      const dir = tempDir();
      const out = join(dir, 'out.jsonl');
      const args = medicalJudgeRun(scripted, { dir, rows, out, store: url });

      await expectKilledRunResumes({
        args,
        output: out,
        atLine,
        rows,
        idPrefix: 'q',
        storeFlag: url,
        openStore: () => openPostgresStore(url, { maxConnections: 2 }),
      });
    }, 120_000);
  },
);
