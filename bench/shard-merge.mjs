// The SQLite store under `serve --processes`: what a stored row costs each side. A copy appends
// its encoded results to a shard of its own; the primary's merger moves them into the store
// file's `results` (one writer, so its cost per row is the rate the file keeps up with the
// answers). Baseline in the same run: the upsert a single process makes into `results` (what
// the primary did for every copy's rows before the shards). Rows are the math preset's results
// for OpenRLHF-style samples, with their request id, prompt and response, as serve stores them;
// `--shards` files get a request's rows in turn, merged a pass at a time as the merger does.
//
//   node bench/shard-merge.mjs [--rows 240000] [--shards 12] [--rounds 2]
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fmt } from './measure.mjs';

const BATCH = 16;
/** Requests a shard takes between two merge passes (the merger runs a pass after another). */
const REQUESTS_PER_PASS = 100;
/**
 * Requests a transaction holds, on both sides: a server's write-behind saves together the
 * requests that finished while the previous transaction ran (a few under load).
 */
const REQUESTS_PER_COMMIT = 4;

const cpuMicros = (since) => {
  const used = process.cpuUsage(since);
  return used.user + used.system;
};

/** `rows` stored rows of server shape, `shards` shards; CPU µs a row on each side. */
async function measure(root, rows, shards) {
  const { createEvaluator, loadSpec } = await import(`${root}/dist/spec/index.js`);
  const { encodeSqliteResults, openSqliteShard, openSqliteStore, runShardsFolder } = await import(
    `${root}/dist/store/index.js`
  );
  const evaluator = createEvaluator(loadSpec('math'));
  const template = await Promise.all(
    Array.from({ length: BATCH }, (_, i) => {
      const n = (1 + i) * 37;
      return evaluator.evaluate({
        id: `s${i}`,
        response: `Adding them gives ${n + i}.\n#### ${i % 4 === 0 ? n + i + 1 : n + i}`,
        reference: String(n + i),
        metadata: {},
      });
    }),
  );
  await evaluator.close();
  const request = (r) => {
    const requestId = `0192f0c0-${String(r).padStart(4, '0').slice(-4)}-7bbb-8ccc-${String(r).padStart(12, '0')}`;
    const results = template.map((result, i) => ({ ...result, id: `${requestId}-${i}` }));
    const texts = template.map((_, i) => ({
      prompt: `<|user|>What is ${(1 + i) * 37} + ${i}?<|assistant|>`,
      response: `Adding them gives ${(1 + i) * 37 + i}.`,
    }));
    return encodeSqliteResults(results, { requestId, samples: texts });
  };
  const requests = Math.ceil(rows / BATCH);

  const dir = mkdtempSync(join(tmpdir(), 'rk-shard-merge-'));
  try {
    // Shards and their merge.
    const path = join(dir, 'sharded.sqlite');
    const store = openSqliteStore(path, { recoverShards: false });
    const run = await store.createRun({ spec_name: 'bench', spec: {}, input: 'http' });
    const files = Array.from({ length: shards }, (_, i) =>
      openSqliteShard(join(runShardsFolder(path, run.id), `${i}.sqlite`)),
    );
    let appendCpu = 0;
    let mergeCpu = 0;
    let merged = 0;
    for (let r = 0; r < requests; ) {
      const encoded = [];
      for (let k = 0; k < (REQUESTS_PER_PASS / REQUESTS_PER_COMMIT) * shards && r < requests; k++) {
        const commit = [];
        for (let q = 0; q < REQUESTS_PER_COMMIT && r < requests; q++, r++) commit.push(...request(r));
        encoded.push(commit);
      }
      let cpu = process.cpuUsage();
      encoded.forEach((commit, k) => {
        files[k % shards].append(run.id, commit);
      });
      appendCpu += cpuMicros(cpu);
      cpu = process.cpuUsage();
      merged += await store.mergeShards(run.id);
      mergeCpu += cpuMicros(cpu);
    }
    for (const file of files) file.close();
    await store.close();

    // Baseline: the same rows upserted into `results` directly, a request's rows at a time.
    const direct = openSqliteStore(join(dir, 'direct.sqlite'));
    const directRun = await direct.createRun({ spec_name: 'bench', spec: {}, input: 'http' });
    let directCpu = 0;
    for (let r = 0; r < requests; ) {
      const commit = [];
      for (let q = 0; q < REQUESTS_PER_COMMIT && r < requests; q++, r++) commit.push(...request(r));
      const cpu = process.cpuUsage();
      await direct.saveEncodedResults(directRun.id, commit);
      directCpu += cpuMicros(cpu);
    }
    await direct.close();
    return {
      rows: merged,
      append: appendCpu / merged,
      merge: mergeCpu / merged,
      direct: directCpu / (requests * BATCH),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function shardMergeSection({ root, quick, rows: rowCount, shards = 12, rounds = 2 }) {
  const rows = rowCount ?? (quick ? 24_000 : 240_000);
  const results = [];
  for (let round = 1; round <= rounds; round++)
    results.push({ round, ...(await measure(root, rows, shards)) });
  return `## The SQLite store under \`serve --processes\`

What a stored row costs each side, in CPU µs a row (\`node bench/shard-merge.mjs\`): a copy appending its results to its own shard (\`append\`, on the copy's store thread, in parallel across copies), and the primary's merger moving them into the store file's \`results\` (\`merge\`, one writer: the rate at which the file keeps up with the answers). Baseline in the same run: the upsert of the same rows straight into \`results\` (\`direct\`), what the primary did for every copy's rows before the shards. ${fmt(rows)} rows of the math preset's results with request id, prompt and response, ${BATCH} a request and ${REQUESTS_PER_COMMIT} requests a transaction, spread over ${shards} shards and merged a pass every ${REQUESTS_PER_PASS} requests a shard; CPU of the whole process (system time included), on one thread.

| round | rows | append µs/row | merge µs/row | direct µs/row | merge vs direct |
|---:|---:|---:|---:|---:|---:|
${results.map((r) => `| ${r.round} | ${fmt(r.rows)} | ${fmt(r.append, 2)} | ${fmt(r.merge, 2)} | ${fmt(r.direct, 2)} | ${fmt(r.direct / r.merge, 2)}× less |`).join('\n')}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const flag = (name) => {
    const at = process.argv.indexOf(`--${name}`);
    return at === -1 ? undefined : Number(process.argv[at + 1]);
  };
  const root = resolve(fileURLToPath(new URL('..', import.meta.url)));
  process.stdout.write(
    `${await shardMergeSection({ root, quick: false, rows: flag('rows'), shards: flag('shards') ?? 12, rounds: flag('rounds') ?? 2 })}\n`,
  );
}
