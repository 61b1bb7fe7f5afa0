import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { RewardKitError } from '../src/core/index.js';
import { GenrmOutputSchema } from '../src/judges/genrm-judge.js';
import { judgeGenrm } from '../src/judges/index.js';
import { callStructured, createLlamaCppModel, type LlamaCppModel } from '../src/llm/index.js';
import { loadNodeLlamaCpp } from '../src/llm/load-node-llama-cpp.js';
import { writeTinyGguf } from './tiny-gguf.js';

// The only reason to skip: this platform has no node-llama-cpp CPU binary.
const available = await loadNodeLlamaCpp()
  .then((lib) => lib.getLlama({ gpu: false, build: 'never', skipDownload: true, progressLogs: false }))
  .then(
    () => true,
    () => false,
  );

let dir: string;
let path: string;
let model: LlamaCppModel;
// One thread: the model is tiny, and a busy test machine makes many threads spin and wait.
const local = (overrides: Partial<Parameters<typeof createLlamaCppModel>[0]> = {}) =>
  createLlamaCppModel({
    name: 'tiny',
    modelPath: path,
    gpu: false,
    threads: 1,
    contextSize: 4096,
    seed: 7,
    ...overrides,
  });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'rk-gguf-'));
  path = join(dir, 'tiny.gguf');
  writeTinyGguf(path);
  model = local();
});
afterAll(async () => {
  await model?.close();
  rmSync(dir, { recursive: true, force: true });
});

const Verdict = z.object({
  winner: z.enum(['A', 'B', 'tie']),
  reasons: z.array(z.string()).min(1).max(3),
  confidence: z.number().int().min(1).max(5),
  flagged: z.boolean(),
});
const ask = [
  { role: 'system' as const, content: 'Compare the two answers and reply in JSON.' },
  { role: 'user' as const, content: 'A: 4. B: 5. Which answer to 2+2 is right?' },
];

describe.skipIf(!available)('local GGUF backend (node-llama-cpp, tiny random model)', () => {
  test('should write a valid tiny GGUF v3 file', () => {
    const size = writeTinyGguf(join(dir, 'again.gguf'));
    expect(size).toBeLessThan(1_000_000);
    expect(size % 32).toBe(0);
  });

  test('should return schema-valid nonsense through callStructured, with usage and latency', async () => {
    const got = await callStructured(
      model,
      { messages: ask, schemaName: 'verdict', temperature: 0.8, maxTokens: 400 },
      Verdict,
      { reasks: 0 },
    );
    expect(got.status).toBe('ok');
    if (got.status !== 'ok') return;
    expect(Verdict.safeParse(got.value).success).toBe(true);
    expect(got.route).toBe('json');
    const call = got.calls[0];
    expect(call?.finishReason).toBe('stop');
    expect(call?.promptTokens).toBeGreaterThan(50);
    expect(call?.completionTokens).toBeGreaterThan(5);
    expect(call?.latencyMs).toBeGreaterThan(0);
  });

  test('should be deterministic for a seed, and answer the same prompt differently for another', async () => {
    const once = (seed: number) =>
      model.complete({
        messages: ask,
        temperature: 0.9,
        seed,
        maxTokens: 300,
        responseSchema: { name: 'verdict', schema: Verdict },
      });
    const [a, b] = [await once(1), await once(1)];
    expect(a.content).toBe(b.content);
    const others = await Promise.all([2, 3, 4].map(once));
    expect(others.some((o) => o.content !== a.content)).toBe(true);
  });

  test('should carry a pairwise judge end to end: GenRM gives a verdict, never invalid', async () => {
    const judgment = await judgeGenrm(
      { prompt: 'Write a haiku about rain.', first: 'Rain taps the tin roof.', second: 'Sun.' },
      { model, temperature: 0.8, reasks: 1 },
    );
    expect(judgment.verdict).not.toBe('invalid');
    expect(['first', 'second', 'tie']).toContain(judgment.verdict);
    expect(judgment.comparisons).toHaveLength(2);
    for (const c of judgment.comparisons) {
      expect(c.invalid).toBeUndefined();
      expect(GenrmOutputSchema.safeParse(c.output).success).toBe(true);
    }
    // The grammar cannot bound a real number, so it keeps the scores to the integers 0..10 — and says so.
    expect(judgment.calls[0]?.warnings).toContain(
      'responseSchema: score_1: narrowed to the integers 0..10 so that the grammar keeps the value in range',
    );
  });

  test('should report an answer cut by the token limit as finishReason length', async () => {
    const got = await model.complete({ messages: ask, temperature: 1, maxTokens: 3 });
    expect(got).toMatchObject({ finishReason: 'length', usage: { completionTokens: 3 } });
  });

  test('should stop a generation when its signal aborts, and free the sequence', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(new Error('caller gave up')), 50);
    await expect(
      model.complete({ messages: ask, temperature: 1, maxTokens: 100_000, signal: controller.signal }),
    ).rejects.toThrow('caller gave up');
    expect(performance.now() - started).toBeLessThan(5000);
    const after = await model.complete({ messages: ask, maxTokens: 4 });
    expect(after.usage.completionTokens).toBeGreaterThan(0);
  });

  test('should queue requests beyond its sequences and answer them all', async () => {
    const answers = await Promise.all(
      [1, 2, 3].map((seed) => model.complete({ messages: ask, temperature: 1, seed, maxTokens: 8 })),
    );
    expect(answers.map((a) => a.finishReason)).toEqual(['length', 'length', 'length']);
  });

  test('should refuse an image part, naming the field', async () => {
    const error = await model
      .complete({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What is in this picture?' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
            ],
          },
        ],
      })
      .catch((e: unknown) => e);
    expect(RewardKitError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(
      /^messages\[0\]\.content\[1\]: an image_url part cannot go to the local GGUF backend/,
    );
  });

  test('should turn settings it cannot honour into warnings, not errors', async () => {
    const got = await model.complete({
      messages: ask,
      maxTokens: 200,
      enableThinking: true,
      tools: [{ name: 'lookup', parameters: z.object({ term: z.string() }) }],
      toolChoice: 'required',
      responseSchema: { name: 'verdict', schema: Verdict },
    });
    expect(Verdict.safeParse(JSON.parse(got.content)).success).toBe(true);
    expect(got.warnings).toEqual([
      'enableThinking is not supported by the local GGUF backend: ignored',
      'tools are not offered together with responseSchema: node-llama-cpp cannot combine a JSON grammar with function calling',
    ]);
    const withTools = await model.complete({
      messages: ask,
      maxTokens: 16,
      tools: [{ name: 'lookup', parameters: z.object({ term: z.string() }) }],
      toolChoice: { name: 'lookup' },
    });
    expect(withTools.warnings).toEqual([
      'toolChoice {"name":"lookup"} is not supported by the local GGUF backend: the model decides (auto)',
    ]);
  });

  test('should name a missing model file', async () => {
    const missing = createLlamaCppModel({ name: 'gone', modelPath: join(dir, 'nope.gguf'), gpu: false });
    await expect(missing.complete({ messages: ask })).rejects.toThrow(
      /model "gone": the GGUF file .*nope\.gguf does not exist \(modelPath\)/,
    );
  });

  test('should name a file that is not a GGUF model', async () => {
    const bogus = join(dir, 'bogus.gguf');
    writeFileSync(bogus, 'not a model');
    const broken = createLlamaCppModel({ name: 'bogus', modelPath: bogus, gpu: false });
    await expect(broken.complete({ messages: ask })).rejects.toThrow(
      /model "bogus": .*could not be loaded as a GGUF model/,
    );
  });
});

describe('node-llama-cpp as an optional package', () => {
  test('should say how to install it when it is missing', async () => {
    const error = await loadNodeLlamaCpp(() =>
      Promise.reject(
        Object.assign(new Error("Cannot find package 'node-llama-cpp'"), { code: 'ERR_MODULE_NOT_FOUND' }),
      ),
    ).catch((e: unknown) => e);
    expect(RewardKitError.isInstance(error) && error.code).toBe('RK_BACKEND_UNAVAILABLE');
    expect((error as Error).message).toMatch(/npm install node-llama-cpp@3/);
  });
});
