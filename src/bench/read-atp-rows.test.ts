import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { type AtpRowRead, readAtpRows } from './read-atp-rows.js';

const file = (name: string, content: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'rk-atp-')), name);
  writeFileSync(path, content);
  return path;
};
const read = async (path: string) => {
  const out: AtpRowRead[] = [];
  for await (const r of readAtpRows(path)) out.push(r);
  return out;
};
const good = {
  id: 'r1',
  query: 'How to fold a shirt?',
  response: 'Fold it <image_generation>folded shirt</image_generation>',
};

describe('readAtpRows', () => {
  test('should read a full row and normalise its fields', async () => {
    const row = {
      trace_id: 42,
      query: 'What is this dish?',
      image_query: 'user/dish.jpg',
      doc: ['Ramen is a noodle soup.', ''],
      images: ['doc/a.png', { url: 'https://x/b.png', caption: 'a bowl' }],
      gt: 'It is ramen <image_reference>1</image_reference>',
      response: 'Ramen.',
      category: ' Recipe ',
      intent: 'identify dish',
    };
    const [got] = await read(file('rows.jsonl', `${JSON.stringify(row)}\n`));
    expect(got).toEqual({
      ok: true,
      line: 1,
      row: {
        id: '42',
        query: 'What is this dish?',
        doc: ['Ramen is a noodle soup.'],
        images: [
          { source: 'user', ref: 'user/dish.jpg' },
          { source: 'document', ref: 'doc/a.png' },
          { source: 'document', ref: 'https://x/b.png', caption: 'a bowl' },
        ],
        response: 'Ramen.',
        category: 'recipe',
        intent: 'identify dish',
        gt: row.gt,
      },
    });
  });

  test.each([
    [
      'a missing response',
      { id: 'r2', query: 'q' },
      'rows.jsonl:1: field "response": Invalid input: expected string, received undefined',
    ],
    ['no id at all', { query: 'q', response: 'r' }, 'rows.jsonl:1: field "id": needs "id" (or "trace_id")'],
    [
      'an unknown category',
      { ...good, category: 'sports' },
      'rows.jsonl:1: field "category": Invalid option: expected one of "academic"|"manual"|"recipe"|"fashion"|"renovation"|"product"|"travel"|"encyclopedia"',
    ],
    [
      'an image object without path or url',
      { ...good, images: [{ caption: 'x' }] },
      'rows.jsonl:1: field "images.0"',
    ],
    ['a doc that is a number', { ...good, doc: 3 }, 'rows.jsonl:1: field "doc"'],
  ])('should name file, line and field for %s', async (_name, row, error) => {
    const [got] = await read(file('rows.jsonl', `${JSON.stringify(row)}\n`));
    expect(got?.ok).toBe(false);
    if (got?.ok !== false) return;
    expect(got.errors.join('\n')).toContain(error);
  });

  test('should keep going after a line that is not JSON, and read JSON arrays with element lines', async () => {
    const jsonl = await read(file('rows.jsonl', `{oops\n${JSON.stringify(good)}\n`));
    expect(jsonl.map((r) => [r.ok, r.line, r.ok ? r.row.id : r.id])).toEqual([
      [false, 1, 'line:1'],
      [true, 2, 'r1'],
    ]);
    const json = await read(
      file(
        'rows.json',
        `[\n${JSON.stringify(good)},\n${JSON.stringify({ ...good, id: 'r2', category: 'x' })}\n]`,
      ),
    );
    expect(json.map((r) => [r.ok, r.line])).toEqual([
      [true, 2],
      [false, 3],
    ]);
    expect(json[1]?.ok === false && json[1].errors[0]).toMatch(/^.*rows\.json:3: field "category"/);
  });
});
