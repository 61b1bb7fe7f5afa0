import { describe, expect, test } from 'vitest';
import { OpenRlhfRequestSchema, openRlhfSamples, responseOfQuery } from './openrlhf-request.js';

describe('responseOfQuery', () => {
  test.each([
    { query: 'PROMPT answer', prompt: 'PROMPT', response: ' answer', warned: false },
    { query: 'P<|im_end|>\nA\n<|im_end|>', prompt: 'P<|im_end|>\n', response: 'A\n', warned: false },
    { query: 'PA</s>', prompt: 'P', response: 'A', warned: false },
    { query: 'PA<|eot_id|><|end_of_text|>', prompt: 'P', response: 'A', warned: false },
    { query: 'PA <|im_end|> tail', prompt: 'P', response: 'A <|im_end|> tail', warned: false },
    { query: 'other template A', prompt: 'P', response: 'other template A', warned: true },
    { query: 'P', prompt: 'P', response: '', warned: false },
  ])('should read $query after $prompt as $response', ({ query, prompt, response, warned }) => {
    const got = responseOfQuery(query, prompt);
    expect(got.response).toBe(response);
    expect(got.warning !== undefined).toBe(warned);
  });
});

describe('openRlhfSamples', () => {
  test('should id samples by request, take labels as references and group equal prompts when asked', () => {
    const body = OpenRlhfRequestSchema.parse({
      query: ['p1 a', 'p2 b', 'p1 c'],
      prompts: ['p1', 'p2', 'p1'],
      labels: ['7', '', null],
    });
    const { samples } = openRlhfSamples(body, 'r', true);
    expect(samples.map((s) => [s.id, s.reference, s.group, s.response])).toEqual([
      ['r-0', '7', 'r-p0', ' a'],
      ['r-1', undefined, 'r-p1', ' b'],
      ['r-2', undefined, 'r-p0', ' c'],
    ]);
    expect(openRlhfSamples(body, 'r', false).samples.every((s) => s.group === undefined)).toBe(true);
  });
});
