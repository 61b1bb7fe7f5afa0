// What the duplicate (run_id, seq) index cost every saved row in PostgreSQL: schema version 4 had
// `results_order` (version 1) and `results_position` (version 4), the same B-tree twice; version 5
// drops one. Each round saves the same server-shaped rows into a fresh database at version 5, and
// into one where the duplicate is created again (the baseline), alternating. Reported: WAL bytes
// per row (what the server writes and ships to replicas; independent of the machine's load), the
// size of the (run_id, seq) indexes, and wall time per row (load-dependent: read it as a hint).
//
//   node bench/pg-duplicate-index.mjs --url postgres://user@host/postgres [--rows 100000] [--rounds 2]
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { fmt } from './measure.mjs';

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    rows: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '2' },
  },
});
if (!values.url) throw new Error('--url postgres://… (a role that may CREATE DATABASE) is required');
const ROWS = Number(values.rows);
const BATCH = 64;
const { openPostgresStore } = await import('../dist/store/index.js');

const admin = async (text) => {
  const client = new pg.Client({ connectionString: values.url });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
};

const result = (i) => ({
  id: `0190c0de-${String(i).padStart(8, '0')}`,
  status: 'ok',
  reward: i % 2,
  components: { math: i % 2 },
  evidence: [
    {
      source: 'math',
      kind: 'math',
      score: i % 2,
      verdict: i % 2 ? 'pass' : 'fail',
      invalid: false,
      veto: false,
      elapsed_ms: 0.01,
    },
  ],
  errors: [],
  warnings: [],
  timings: { total_ms: 0.02 },
});

async function round(duplicate) {
  const name = `rk_bench_${randomBytes(4).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(values.url);
  url.pathname = `/${name}`;
  const store = await openPostgresStore(url.toString());
  const run = await store.createRun({ spec_name: 'serve:math', spec: {}, input: 'http' });
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  if (duplicate) await client.query('CREATE INDEX results_order ON results (run_id, seq)');
  const lsn = async () => (await client.query('SELECT pg_current_wal_lsn() AS lsn')).rows[0].lsn;
  const before = await lsn();
  const started = performance.now();
  for (let i = 0; i < ROWS; i += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, ROWS - i) }, (_, j) => result(i + j));
    await store.saveResults(run.id, batch, { requestId: `req-${i}` });
  }
  const ms = performance.now() - started;
  const after = await lsn();
  const [{ wal }] = (await client.query('SELECT pg_wal_lsn_diff($1, $2)::float8 AS wal', [after, before]))
    .rows;
  const [{ bytes }] = (
    await client.query(
      `SELECT COALESCE(SUM(pg_relation_size(indexrelid)), 0)::float8 AS bytes FROM pg_index
       WHERE indrelid = 'results'::regclass AND pg_get_indexdef(indexrelid) LIKE '%(run_id, seq)'`,
    )
  ).rows;
  await client.end();
  await store.close();
  await admin(`DROP DATABASE ${name} WITH (FORCE)`);
  return { walPerRow: wal / ROWS, indexBytes: bytes, usPerRow: (ms * 1000) / ROWS };
}

for (let r = 1; r <= Number(values.rounds); r++) {
  for (const duplicate of [true, false]) {
    const m = await round(duplicate);
    console.log(
      `round ${r} ${duplicate ? 'version 4 (duplicate index)' : 'version 5'}: ${fmt(m.walPerRow)} WAL bytes/row, (run_id, seq) indexes ${fmt(m.indexBytes / 1024 / 1024, 1)} MiB, ${fmt(m.usPerRow, 1)} µs/row wall`,
    );
  }
}
