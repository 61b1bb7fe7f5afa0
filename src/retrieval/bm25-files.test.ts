import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readBm25Index, writeBm25Index } from './bm25-files.js';
import { buildBm25Index, documentText } from './bm25-index.js';
import { searchBm25 } from './bm25-search.js';

const docs = [
  { id: 'a', contents: 'Velmora\nA river town founded in 1432.' },
  { id: 'b', contents: '巴黎\n巴黎是法国的首都。' },
  { id: 'c', contents: 'Orrin Vale\nThe valley where the Velmora river rises.' },
];
const corpus = { file: 'c.jsonl', rows: 3, failed: 0 };

describe('BM25 index files', () => {
  test('should load back an index that answers exactly like the one written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rk-bm25-'));
    const built = buildBm25Index(docs);
    const manifest = writeBm25Index(dir, built, corpus);
    expect(manifest).toMatchObject({ format: 'rk-bm25/v1', k1: 1.2, b: 0.75, doc_count: 3 });
    const { index } = readBm25Index(dir);
    for (const query of ['velmora river', '法国', 'valley 1432']) {
      expect(searchBm25(index, query, 3)).toEqual(searchBm25(built, query, 3));
    }
    expect(documentText(index, 1)).toBe('巴黎\n巴黎是法国的首都。');
    expect(index.docIds).toEqual(['a', 'b', 'c']);
  });

  test('should write byte-identical files for the same corpus', () => {
    const one = mkdtempSync(join(tmpdir(), 'rk-bm25-'));
    const two = mkdtempSync(join(tmpdir(), 'rk-bm25-'));
    writeBm25Index(one, buildBm25Index(docs), corpus);
    writeBm25Index(two, buildBm25Index(docs), corpus);
    for (const file of ['terms.json', 'posting-docs.u32', 'posting-tfs.u32', 'term-offsets.u32', 'docs.utf8'])
      expect(readFileSync(join(one, file))).toEqual(readFileSync(join(two, file)));
  });

  test('should name the file and the fix when the index is missing or damaged', () => {
    const dir = mkdtempSync(join(tmpdir(), 'rk-bm25-'));
    expect(() => readBm25Index(dir)).toThrow(
      /index\.json: cannot read the BM25 index .*rewardkit index build/,
    );
    writeBm25Index(dir, buildBm25Index(docs), corpus);
    writeFileSync(join(dir, 'posting-tfs.u32'), Buffer.alloc(6));
    expect(() => readBm25Index(dir)).toThrow(
      /posting-tfs\.u32: 6 bytes where index\.json implies \d+; rebuild/,
    );
    const manifest = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8'));
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ ...manifest, format: 'other/v9' }));
    expect(() => readBm25Index(dir)).toThrow(/index\.json: field "format"/);
  });
});
