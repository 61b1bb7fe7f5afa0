import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openSqliteStore } from '../src/store/index.js';
import { createViewApp } from '../src/view/create-view-app.js';
import { readJsonl, runCli, tempDir } from './cli-harness.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';
import { tracedCalls } from './traced-calls.js';

const server = scriptedServerPerTest();

// The scripted server reports 10 prompt and 5 completion tokens per call: at $3 in and $15 out per
// million tokens, a call costs (10·3 + 5·15) / 1e6 = $0.000105; GenRM asks both orders, so a
// judgment costs $0.00021.
const CALL_USD = 0.000105;

describe('the cost of a judge run in money', () => {
  test('should price each call from the models file, sum it per judgment and source, and count cache hits as free', async () => {
    const dir = tempDir();
    writeFileSync(
      join(dir, 'models.yaml'),
      `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n    price: {input: 3, output: 15}\n`,
    );
    writeFileSync(join(dir, 'spec.yaml'), 'sources:\n  - kind: genrm\n    params:\n      model: judge\n');
    writeFileSync(
      join(dir, 'in.jsonl'),
      ['a', 'b']
        .map((id) => JSON.stringify({ id, prompt: 'p', response: `R-${id}`, reference: 'y' }))
        .join('\n'),
    );
    server.script({
      reply: { content: JSON.stringify({ principles: ['vivid'], critique: 'fine', score_1: 5, score_2: 5 }) },
    });
    const store = join(dir, 'store.sqlite');
    const args = [
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      join(dir, 'models.yaml'),
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      join(dir, 'out.jsonl'),
      '--store',
      store,
      '--no-resume',
    ];
    const first = await runCli(args);
    expect(first.code).toBe(0);
    expect(`${first.stdout}${first.stderr}`).toMatch(/4 LLM calls, 40\+20 tokens, 0 cached, \$0\.00042/);
    const [row] = readJsonl(join(dir, 'out.jsonl'));
    const evidence = (row?.evidence as unknown[] | undefined)?.[0] as { usage: { cost_usd: number } };
    expect(evidence.usage.cost_usd).toBeCloseTo(2 * CALL_USD, 12);
    expect(tracedCalls(evidence).map((c) => (c as { cost_usd?: number }).cost_usd)).toEqual([
      expect.closeTo(CALL_USD, 12),
      expect.closeTo(CALL_USD, 12),
    ]);

    // The same rows again: answered from the store's cache, so free.
    const again = await runCli(args);
    expect(again.code).toBe(0);
    expect(`${again.stdout}${again.stderr}`).toMatch(/4 LLM calls, 40\+20 tokens, 4 cached, \$0\.00\b/);

    const opened = await openSqliteStore(store);
    try {
      const [cached, paid] = await opened.listRuns({ limit: 2 });
      const app = createViewApp({ store: opened, assetsDir: '/nonexistent' });
      const sourcesOf = async (id: string | undefined) =>
        (
          (await (await app.request(`http://localhost/api/runs/${id}`)).json()) as {
            sources: Array<{ source: string; usage: { cost_usd?: number } }>;
          }
        ).sources;
      expect((await sourcesOf(paid?.id))[0]?.usage.cost_usd).toBeCloseTo(4 * CALL_USD, 12);
      expect((await sourcesOf(cached?.id))[0]?.usage.cost_usd).toBe(0);
    } finally {
      await opened.close();
    }
  });

  test('should say nothing of money when the models file gives no price', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'models.yaml'), `models:\n  judge:\n    model: m\n    base_url: ${server.url}\n`);
    writeFileSync(join(dir, 'spec.yaml'), 'sources:\n  - kind: genrm\n    params:\n      model: judge\n');
    writeFileSync(join(dir, 'in.jsonl'), '{"id": "a", "prompt": "p", "response": "x", "reference": "y"}\n');
    server.script({
      reply: { content: JSON.stringify({ principles: ['vivid'], critique: 'fine', score_1: 5, score_2: 5 }) },
    });
    const run = await runCli([
      'score',
      '--spec',
      join(dir, 'spec.yaml'),
      '--models',
      join(dir, 'models.yaml'),
      '--input',
      join(dir, 'in.jsonl'),
      '--output',
      join(dir, 'out.jsonl'),
      '--store',
      'none',
    ]);
    expect(run.code).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/2 LLM calls, 20\+10 tokens, 0 cached\n/);
    const [row] = readJsonl(join(dir, 'out.jsonl'));
    expect((row?.evidence as Array<{ usage: object }> | undefined)?.[0]?.usage).not.toHaveProperty(
      'cost_usd',
    );
  });
});
