import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { fleissKappa, krippendorffAlpha } from '../src/judges/index.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const MODELS = ['judge-a', 'judge-b', 'judge-c'];
/** Per sample, whether each judge finds the response better than the reference. */
const WINS = [
  [true, true, true],
  [true, true, false],
  [false, false, false],
  [true, false, false],
];

const rules = (): ScriptRule[] =>
  WINS.flatMap((wins, s) =>
    wins.map((win, m) => ({
      match: { model: MODELS[m], contains: `Question ${s}?` },
      reply: {
        content: JSON.stringify({
          principles: ['correct'],
          critique: 'as scored',
          score_1: win ? 8 : 2,
          score_2: win ? 3 : 9,
        }),
      },
    })),
  );

describe('rewardkit score with a panel source', () => {
  test('should score by majority and print and store the judges agreement and cost per judgment', async () => {
    server.script(...rules());
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n${MODELS.map((m) => `  ${m}:\n    model: ${m}\n    base_url: ${server.url}\n    max_retries: 0\n`).join('')}`,
    );
    writeFileSync(
      join(dir, 'spec.yaml'),
      [
        'name: panel',
        'sources:',
        '  - name: judges',
        '    kind: panel',
        '    params:',
        '      judge: { kind: genrm, params: { both_orders: false } }',
        `      models: [${MODELS.join(', ')}]`,
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(dir, 'samples.jsonl'),
      WINS.map((_, s) =>
        JSON.stringify({
          id: `s${s}`,
          prompt: `Question ${s}?`,
          response: `Answer ${s}.`,
          reference: 'Ref.',
        }),
      ).join('\n'),
    );
    const store = join(dir, 'store.db');
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      join(dir, 'models.yaml'),
      '-i',
      join(dir, 'samples.jsonl'),
      '-o',
      join(dir, 'scored.jsonl'),
      '--summary',
      join(dir, 'summary.json'),
      '--store',
      store,
      '--no-progress',
    ]);
    expect(run.code, run.stderr).toBe(0);
    // Majorities: 3–0, 2–1 win; 0–3, 1–2 lose.
    expect(readJsonl(join(dir, 'scored.jsonl')).map((r) => r.reward)).toEqual([1, 1, 0, 0]);
    expect(server.requests).toHaveLength(12);

    // The same statistics over the scripted verdicts: [pass, fail] counts per sample for Fleiss,
    // the members' verdicts as units for alpha.
    const counts = WINS.map((wins) => [wins.filter(Boolean).length, wins.filter((w) => !w).length]);
    const fleiss = fleissKappa(counts).value as number;
    const alpha = krippendorffAlpha(
      WINS.map((wins) => wins.map((w) => (w ? 'pass' : 'fail'))),
      'nominal',
    ).value as number;
    // P̄ = (1 + 1/3 + 1 + 1/3) / 4 = 2/3, P̄_e = 0.5: kappa = 1/3.
    expect(fleiss).toBeCloseTo(1 / 3, 12);
    expect(run.stdout).toContain(
      `  panel judges: 3 members (genrm:judge-a, genrm:judge-b, genrm:judge-c), 4 judgments\n    Fleiss' kappa         ${fleiss.toFixed(3)}  (4 samples)\n    Krippendorff alpha    ${alpha.toFixed(3)}  (4 samples) nominal, verdicts`,
    );
    expect(run.stdout).toContain('    per judgment          3.00 calls, 45.0 tokens; escalated 0.0%');

    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'));
    expect(summary.panels).toEqual([
      expect.objectContaining({
        source: 'judges',
        judgments: 4,
        fleiss_kappa: { value: expect.closeTo(fleiss, 12), units: 4 },
        escalation_rate: 0,
        calls_per_judgment: 3,
      }),
    ]);
    const runId = /rewardkit runs show ([^\s)]+)/.exec(run.stdout)?.[1] as string;
    const shown = await runCli(['runs', 'show', runId, '--store', store]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(JSON.parse(shown.stdout).summary.panels).toEqual(summary.panels);
  }, 120_000);
});
