import { describe, expect, test } from 'vitest';
import { loadOpenrsFiles } from '../../judges/openrs/index.js';
import { type ChatModel, ChatModelError, type ChatResponse } from '../../llm/index.js';
import { proxyQuality } from './rubrics-evolve-quality.js';

const reply = (content: string): ChatResponse => ({
  content,
  finishReason: 'stop',
  usage: { promptTokens: 1, completionTokens: 1 },
  model: 'm',
  endpoint: 'e',
  latencyMs: 1,
  retries: 0,
});
const unreadable: ChatModel = { name: 'producer', complete: async () => reply('not json at all') };
const down: ChatModel = {
  name: 'producer',
  complete: async () => {
    throw new ChatModelError('connection refused', ['connection refused'], { isRetryable: true });
  },
};
const files = loadOpenrsFiles({});
const pairs = [
  { id: 'p1', prompt: 'Add 2 and 2.', chosen: '4', rejected: '5' },
  { id: 'p2', prompt: 'Capital of France?', chosen: 'Paris', rejected: 'Rome' },
];
const quality = (producer: ChatModel) =>
  proxyQuality({ weight: 0.5, producer, proxy: unreadable, files, reasks: 0, concurrency: 2, seed: 7 });

describe('proxyQuality (Proxy-GRM as a fitness term of the meta-rubric evolution)', () => {
  test('should count a variant under which the producer wrote no readable rubric as wrong (−1), not leave it out', async () => {
    // An unreadable rubric is evidence against the variant: leaving it out would let a variant
    // that breaks the producer's output score as if it had never been tried.
    await expect(quality(unreadable).score(files.metaRubric, pairs)).resolves.toBe(-1);
  });

  test('should leave out pairs whose producer calls got no answer, and stop when none is left', async () => {
    await expect(quality(down).score(files.metaRubric, pairs)).rejects.toThrow(
      /no training pair got a rubric and a proxy answer \(2 tried\)/,
    );
  });
});
