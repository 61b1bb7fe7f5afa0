// BM25 retrieval benchmark: index build, load and query rate on a generated 100,000-document
// corpus, next to a naive scan (BM25 computed over every document, no inverted index) measured in
// the same run. `node bench/bm25.mjs` (after `npm run build`) replaces its section of
// BENCHMARKS.md; `npm run bench` includes it with the others. `--quick`: 10,000 documents.
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt, replaceSection } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** A seeded corpus over a Zipf-distributed vocabulary of invented words, 30–120 words a document. */
function generateCorpus(count) {
  let state = 42;
  const rand = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
  const syllables = [
    'ka',
    'lo',
    'mi',
    're',
    'su',
    'ten',
    'vor',
    'ash',
    'el',
    'qui',
    'dra',
    'nob',
    'fe',
    'zul',
  ];
  const vocabulary = Array.from({ length: 30_000 }, (_, i) => {
    let word = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) word += syllables[n % syllables.length];
    return word;
  });
  // Zipf: word rank r drawn with probability ∝ 1/r, by inverting the harmonic CDF approximately.
  const word = () =>
    vocabulary[
      Math.min(vocabulary.length - 1, Math.floor(Math.exp(rand() * Math.log(vocabulary.length))) - 1)
    ];
  const docs = [];
  for (let i = 0; i < count; i++) {
    const length = 30 + Math.floor(rand() * 90);
    const words = Array.from({ length }, word);
    docs.push({ id: `d${i}`, contents: `${words.slice(0, 3).join(' ')}\n${words.join(' ')}` });
  }
  const queries = Array.from({ length: 2000 }, () =>
    Array.from({ length: 2 + Math.floor(rand() * 4) }, word).join(' '),
  );
  return { docs, queries };
}

export async function bm25Section({ quick = false } = {}) {
  const { buildBm25Index, readBm25Index, searchBm25, writeBm25Index } = await import(
    '../dist/retrieval/index.js'
  );
  const { tokenize } = await import('../dist/retrieval/tokenize.js');
  const { bm25Idf, bm25TermScore } = await import('../dist/retrieval/bm25-search.js');
  const count = quick ? 10_000 : 100_000;
  const { docs, queries } = generateCorpus(count);
  const corpusBytes = docs.reduce((n, d) => n + Buffer.byteLength(JSON.stringify(d)) + 1, 0);

  let start = performance.now();
  const index = buildBm25Index(docs);
  const buildMs = performance.now() - start;
  const dir = mkdtempSync(join(tmpdir(), 'rewardkit-bm25-'));
  start = performance.now();
  writeBm25Index(dir, index, { file: 'generated', rows: count, failed: 0 });
  const writeMs = performance.now() - start;
  const files = [
    'index.json',
    'terms.json',
    'ids.json',
    'docs.utf8',
    'term-offsets.u32',
    'posting-docs.u32',
    'posting-tfs.u32',
    'doc-lengths.u32',
    'doc-offsets.u32',
  ];
  const indexBytes = files.reduce((n, f) => n + statSync(join(dir, f)).size, 0);
  start = performance.now();
  const { index: loaded } = readBm25Index(dir);
  const loadMs = performance.now() - start;

  // Baseline: the same BM25 formula over every document per query, from per-document term
  // counts prepared once (not timed), which is what a retriever without an inverted index does.
  const counts = docs.map((d) => {
    const m = new Map();
    for (const t of tokenize(d.contents)) m.set(t, (m.get(t) ?? 0) + 1);
    return m;
  });
  const lengths = counts.map((m) => [...m.values()].reduce((a, b) => a + b, 0));
  const df = new Map();
  for (const m of counts) for (const t of m.keys()) df.set(t, (df.get(t) ?? 0) + 1);
  const avg = lengths.reduce((a, b) => a + b, 0) / count;
  const params = { k1: 1.2, b: 0.75 };
  const naive = (query, k) => {
    const terms = [...new Set(tokenize(query))];
    const scored = [];
    for (let d = 0; d < count; d++) {
      let s = 0;
      for (const t of terms) {
        const tf = counts[d].get(t);
        if (tf) s += bm25TermScore(bm25Idf(count, df.get(t)), tf, lengths[d], avg, params);
      }
      if (s > 0) scored.push([d, s]);
    }
    return scored.sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, k);
  };
  const rate = (fn, list, ms) => {
    let done = 0;
    const t0 = performance.now();
    while (performance.now() - t0 < ms) {
      fn(list[done % list.length]);
      done++;
    }
    return (done / (performance.now() - t0)) * 1000;
  };
  // The two must agree before their speeds are compared.
  for (const q of queries.slice(0, 20)) {
    const a = searchBm25(loaded, q, 3).map((h) => h.doc);
    const b = naive(q, 3).map((h) => h[0]);
    if (a.join() !== b.join()) throw new Error(`BM25 index and naive scan disagree on "${q}": ${a} vs ${b}`);
  }
  const naiveRate = rate((q) => naive(q, 3), queries, quick ? 500 : 3000);
  const indexRate = rate((q) => searchBm25(loaded, q, 3), queries, quick ? 500 : 3000);
  rmSync(dir, { recursive: true, force: true });
  const postings = index.postingDocs.length;
  return `## BM25 retrieval (embedded index, one core)

Generated corpus: ${fmt(count)} documents of 30–120 words over a Zipf vocabulary of 30,000 words (${fmt(corpusBytes / 1e6, 1)} MB as JSONL; ${fmt(index.terms.size)} terms, ${fmt(postings)} postings); queries of 2–5 words, top 3.

| step | time | rate |
|---|---:|---:|
| build (tokenize + invert) | ${fmt(buildMs / 1000, 2)} s | ${fmt(count / (buildMs / 1000))} docs/s |
| write to disk | ${fmt(writeMs)} ms | index ${fmt(indexBytes / 1e6, 1)} MB (${fmt(indexBytes / corpusBytes, 2)}× the JSONL) |
| load from disk | ${fmt(loadMs)} ms | — |

| search | queries/s | vs naive scan |
|---|---:|---:|
| naive scan: BM25 over every document (baseline) | ${fmt(naiveRate, 1)} | 1.00× |
| inverted index (\`searchBm25\`) | ${fmt(indexRate)} | ${fmt(indexRate / naiveRate, 1)}× |

Both return the same top 3 on the first 20 queries (checked in the run).`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const section = await bm25Section({ quick });
  process.stdout.write(`${section}\n`);
  if (!quick) {
    const file = join(root, 'BENCHMARKS.md');
    writeFileSync(file, replaceSection(readFileSync(file, 'utf8'), 'BM25 retrieval', section));
  }
}
