import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { readCorpus } from './read-corpus.js';

test('should read both row shapes and record every bad row with file, line and field', async () => {
  const file = join(mkdtempSync(join(tmpdir(), 'rk-corpus-')), 'c.jsonl');
  writeFileSync(
    file,
    [
      '{"id": "a", "contents": "Title A\\nBody A"}',
      '{"id": 7, "title": "Title B", "text": "Body B"}',
      '{"id": "c"}',
      'not json',
      '{"id": "a", "contents": "again"}',
      '',
    ].join('\n'),
  );
  const { docs, failed } = await readCorpus(file);
  expect(docs).toEqual([
    { id: 'a', contents: 'Title A\nBody A' },
    { id: '7', contents: 'Title B\nBody B' },
  ]);
  expect(failed.map((f) => [f.id, f.line])).toEqual([
    ['c', 3],
    ['line:4', 4],
    ['a', 5],
  ]);
  expect(failed[0]?.errors[0]).toBe(`${file}:3: field "contents": needs "contents", or "title" and "text"`);
  expect(failed[1]?.errors[0]).toMatch(`${file}:4: invalid JSON`);
  expect(failed[2]?.errors[0]).toBe(`${file}:5: field "id": "a" appears earlier in the corpus`);
});
