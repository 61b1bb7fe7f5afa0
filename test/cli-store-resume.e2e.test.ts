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
import { scriptedServerPerTest } from './scripted-openai-server.js';

const ROWS = 4000;

const mathRows = (n: number) =>
  `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `m${i}`, response: `#### ${i % 7}`, reference: String(i % 5) })).join('\n')}\n`;

describe('rewardkit score: killed with SIGKILL and resumed, nothing is lost in the store', () => {
  // The kill points come from a seeded generator: the same trials on every run. The fourth scores
  // on worker threads, whose chunks reach the output and the store by another path.
  const rng = createRng(27);
  const trials = [1, 2, 3, 4].map((trial) => ({
    trial,
    atLine: rng.int(200, ROWS - 600),
    workers: trial === 4 ? 2 : 0,
  }));

  test.each(trials)(
    'trial $trial (--workers $workers): killed at line $atLine of the output, a resumed SQLite run stores every output row',
    async ({ atLine, workers }) => {
      const dir = tempDir();
      const input = join(dir, 'in.jsonl');
      const out = join(dir, 'out.jsonl');
      const store = join(dir, 'store.sqlite');
      writeFileSync(input, mathRows(ROWS));
      const args = ['score', '--spec', 'math', '-i', input, '-o', out, '--store', store, '-c', '1'];
      args.push('--workers', String(workers));

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

const JUDGED_ROWS = 300;

const rubric = {
  essential: [
    {
      title: 'Says it is usually fine at the labelled dose',
      levels: { not_met: 'No', partially_met: 'Yes without dose', fully_met: 'Yes at the dose' },
    },
  ],
  important: [],
  highlight: [],
  pitfall: [
    {
      title: 'Suggests combining two NSAIDs',
      levels: { no_pitfall: 'No', minor_error: 'Vague', major_error: 'Yes' },
    },
  ],
};
const medicalRows = (n: number) =>
  `${Array.from({ length: n }, (_, i) => JSON.stringify({ id: `q${i}`, prompt: `Can I take ibuprofen? (${i})`, response: `Answer ${i}: usually yes.`, rubric })).join('\n')}\n`;
const grading = (grade: string) =>
  JSON.stringify({
    grades: [
      { id: 'E1', evidence: '', reason: '', grade },
      { id: 'P1', evidence: '', reason: '', grade: 'no_pitfall' },
    ],
  });

describe('rewardkit judge <kind>: killed with SIGKILL and resumed, nothing is lost in the store', () => {
  const server = scriptedServerPerTest();
  const rng = createRng(2027);
  const trials = [1, 2, 3].map((trial) => ({ trial, atLine: rng.int(20, JUDGED_ROWS - 120) }));

  test.each(trials)(
    'trial $trial: killed at line $atLine of the output, a resumed judge run stores every output row',
    async ({ atLine }) => {
      // Even answers are graded fully met, odd ones partly: the rewards differ row to row.
      server.script(
        { match: { contains: /Answer \d*[02468]:/ }, reply: { content: grading('fully_met') } },
        { reply: { content: grading('partially_met') } },
      );
      const dir = tempDir();
      const input = join(dir, 'in.jsonl');
      const out = join(dir, 'out.jsonl');
      const store = join(dir, 'store.sqlite');
      const models = join(dir, 'models.yaml');
      writeFileSync(input, medicalRows(JUDGED_ROWS));
      writeFileSync(
        models,
        `models:\n  judge:\n    model: med-judge\n    base_url: ${server.url}\n    max_retries: 0\n`,
      );
      const args = [
        'judge',
        'medical_rubric',
        '--models',
        models,
        '--model',
        'judge',
        '--map',
        'metadata.rubric=rubric',
        '-i',
        input,
        '-o',
        out,
        '--store',
        store,
        '-c',
        '2',
      ];

      const killed = await runKilledAt(args, out, atLine);
      expect(killed.signal).toBe('SIGKILL');
      expect(outputIdsAfterKill(out).length).toBeLessThan(JUDGED_ROWS);
      const short = openSqliteStore(store, { readonly: true });
      const missing = await missingFromStore(short, out).finally(() => short.close());

      const resumed = await runCli(args);
      expect(resumed.stderr).not.toMatch(/\n\s+at /);
      expect(resumed.code).toBe(0);
      if (missing > 0) expect(resumed.stderr).toContain(`stored ${missing} result`);
      const lines = readJsonl(out);
      expect(lines.map((line) => line.id)).toEqual(Array.from({ length: JUDGED_ROWS }, (_, i) => `q${i}`));
      expect(new Set(lines.map((line) => line.reward)).size).toBe(2);
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
