import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonArrayLines, readRowLines } from './json-array-lines.js';

const file = (name: string, content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'rk-json-')), name);
  writeFileSync(path, content);
  return path;
};
const all = async (lines: AsyncIterable<unknown>) => {
  const out = [];
  for await (const l of lines) out.push(l);
  return out;
};

describe('readJsonArrayLines', () => {
  test('should yield each element with the line it starts on', async () => {
    const path = file('rows.json', '[\n  {"id": "a", "s": "x, ] }"},\n  {"id": "b",\n   "n": [1, 2]}\n]\n');
    expect(await all(readJsonArrayLines(path))).toEqual([
      { line: 2, text: '{"id": "a", "s": "x, ] }"}' },
      { line: 3, text: '{"id": "b",\n   "n": [1, 2]}' },
    ]);
  });

  test('should keep a malformed element as its own line so only that row fails', async () => {
    const path = file('rows.json', '[{"id": "a"},\n {"id": oops},\n {"id": "c"}]');
    expect((await all(readJsonArrayLines(path))).map((l) => (l as { line: number }).line)).toEqual([1, 2, 3]);
  });

  test('should report an unclosed array at its end', async () => {
    const path = file('rows.json', '[{"id": "a"},\n');
    expect(await all(readJsonArrayLines(path))).toEqual([
      { line: 1, text: '{"id": "a"}' },
      { line: 2, error: 'the JSON array is not closed with "]"' },
    ]);
  });

  test('should refuse a file that is not an array, naming file and line', async () => {
    const path = file('rows.json', '\n{"id": "a"}');
    await expect(all(readJsonArrayLines(path))).rejects.toThrow(/rows\.json:2: expected a JSON array/);
  });

  test('should read .jsonl files line by line', async () => {
    const path = file('rows.jsonl', '{"id": "a"}\n\n{"id": "b"}\n');
    expect(await all(readRowLines(path))).toEqual([
      { line: 1, text: '{"id": "a"}' },
      { line: 3, text: '{"id": "b"}' },
    ]);
  });
});
