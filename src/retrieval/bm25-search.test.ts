import { describe, expect, test } from 'vitest';
import { buildBm25Index } from './bm25-index.js';
import { bm25Idf, bm25TermScore, searchBm25 } from './bm25-search.js';

// Three documents, lengths 3, 3 and 4 (avgdl 10/3). Scores worked by hand with Lucene's IDF
// ln(1 + (N − df + 0.5)/(df + 0.5)) and k1 = 1.2, b = 0.75.
const corpus = [
  { id: 'd0', contents: 'cat sat mat' },
  { id: 'd1', contents: 'Cat cat dog' },
  { id: 'd2', contents: 'dog runs far away' },
];
const index = buildBm25Index(corpus);

describe('bm25Idf', () => {
  test.each([
    [3, 2, Math.log(1.6)],
    [3, 1, Math.log(1 + 2.5 / 1.5)],
    [3, 3, Math.log(1 + 0.5 / 3.5)],
  ])('should give ln(1 + (N - df + 0.5)/(df + 0.5)) for N=%i df=%i', (n, df, expected) => {
    expect(bm25Idf(n, df)).toBeCloseTo(expected, 12);
  });
});

describe('searchBm25', () => {
  test.each([
    [
      'cat',
      [
        ['d1', 0.664956903],
        ['d0', 0.490051177],
      ],
    ],
    [
      'dog',
      [
        ['d1', 0.490051177],
        ['d2', 0.434457136],
      ],
    ],
    ['runs', [['d2', 0.906648889]]],
    [
      'cat dog',
      [
        ['d1', 1.155008081],
        ['d0', 0.490051177],
        ['d2', 0.434457136],
      ],
    ],
    [
      'cat cat cat dog',
      [
        ['d1', 1.155008081],
        ['d0', 0.490051177],
        ['d2', 0.434457136],
      ],
    ],
    [
      'CAT!',
      [
        ['d1', 0.664956903],
        ['d0', 0.490051177],
      ],
    ],
    ['zebra', []],
  ] as const)('should score %j as worked by hand', (query, expected) => {
    const hits = searchBm25(index, query, 10).map((h) => [index.docIds[h.doc], h.score]);
    expect(hits.map((h) => h[0])).toEqual(expected.map((e) => e[0]));
    for (const [i, h] of hits.entries()) expect(h[1]).toBeCloseTo(expected[i]?.[1] as number, 8);
  });

  test('should cut to topk, best first, and break ties by document order', () => {
    expect(searchBm25(index, 'cat dog', 1).map((h) => h.doc)).toEqual([1]);
    const twins = buildBm25Index([
      { id: 'a', contents: 'x y' },
      { id: 'b', contents: 'y x' },
      { id: 'c', contents: 'x y' },
    ]);
    expect(searchBm25(twins, 'x', 2).map((h) => h.doc)).toEqual([0, 1]);
  });

  test('should use the given k1 and b (b = 0 turns length normalization off)', () => {
    const flat = buildBm25Index(corpus, { k1: 1.2, b: 0 });
    expect(searchBm25(flat, 'cat', 1)[0]?.score).toBeCloseTo(0.64625499, 8);
  });

  test('should find Chinese words inside unspaced text', () => {
    const zh = buildBm25Index([
      { id: 'z0', contents: '巴黎是法国的首都。' },
      { id: 'z1', contents: '东京是日本的首都。' },
    ]);
    expect(searchBm25(zh, '法国首都', 2).map((h) => zh.docIds[h.doc])).toEqual(['z0', 'z1']);
    expect(searchBm25(zh, '日本', 2).map((h) => zh.docIds[h.doc])).toEqual(['z1']);
  });
});

describe('searchBm25 pruning', () => {
  // A reference without pruning: every term's postings walked in full, in query order.
  const exhaustive = (idx: ReturnType<typeof buildBm25Index>, query: string, k: number) => {
    const totals = new Map<number, number>();
    for (const term of new Set(query.split(' '))) {
      const t = idx.terms.get(term);
      if (t === undefined) continue;
      const [start, end] = [idx.termOffsets[t] as number, idx.termOffsets[t + 1] as number];
      const idf = bm25Idf(idx.docCount, end - start);
      for (let p = start; p < end; p++) {
        const doc = idx.postingDocs[p] as number;
        const len = idx.docLengths[doc] as number;
        totals.set(
          doc,
          (totals.get(doc) ?? 0) +
            bm25TermScore(idf, idx.postingTfs[p] as number, len, idx.avgDocLength, idx.params),
        );
      }
    }
    return [...totals].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k);
  };

  test('should return what a full scan returns, on 300 random queries over a Zipf corpus', () => {
    let state = 7;
    const rand = () => {
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      return state / 4294967296;
    };
    const word = () => `w${Math.floor(Math.exp(rand() * Math.log(400)))}`;
    const docs = Array.from({ length: 2000 }, (_, i) => ({
      id: `d${i}`,
      contents: Array.from({ length: 5 + Math.floor(rand() * 40) }, word).join(' '),
    }));
    const idx = buildBm25Index(docs);
    for (let q = 0; q < 300; q++) {
      const query = Array.from({ length: 1 + Math.floor(rand() * 5) }, word).join(' ');
      for (const k of [1, 3, 10]) {
        const got = searchBm25(idx, query, k);
        const want = exhaustive(idx, query, k);
        expect(got.map((h) => h.doc)).toEqual(want.map((w) => w[0]));
        for (const [i, h] of got.entries()) expect(h.score).toBeCloseTo(want[i]?.[1] as number, 9);
      }
    }
  });
});
