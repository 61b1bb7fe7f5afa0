import { afterAll, describe, expect, test } from 'vitest';
import { failedResult } from '../core/index.js';
import { openPostgresStore, openSqliteStore, type SampleRow, type Store } from '../store/index.js';
import { startTestPostgres } from '../store/test-utils/start-test-postgres.js';
import { okResult } from '../store/test-utils/store-conformance.js';
import { createViewApp } from './create-view-app.js';

const postgres = await startTestPostgres();
afterAll(() => postgres.stop());

/** 5,500 rows (more than one export page), a few with text that a spreadsheet would run. */
async function exportApp(store: Store) {
  await store.createRun({ id: 'run-x', spec_name: 'math', spec: {} });
  const ids = Array.from({ length: 5500 }, (_, i) => (i % 500 === 7 ? `=cmd|${i}` : `s${i}`));
  await store.saveResults(
    'run-x',
    ids.map((id, i) =>
      i % 11 === 0 ? failedResult(id, ['bad, "quoted"\nline']) : okResult(id, (i % 7) / 6),
    ),
    { samples: ids.map((_, i) => ({ prompt: 'p', response: i % 3 === 0 ? '+SUM(A1:A9), "x"' : `r${i}` })) },
  );
  const app = createViewApp({ store, assetsDir: '/nonexistent' });
  return app;
}

/** Every row the samples route gives for `query`, page by page. */
async function apiRows(app: Awaited<ReturnType<typeof exportApp>>, query: string): Promise<SampleRow[]> {
  const rows: SampleRow[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = (await (
      await app.request(`http://localhost/api/runs/run-x/samples?${query}&limit=1000&offset=${offset}`)
    ).json()) as { rows: SampleRow[]; total: number };
    rows.push(...page.rows);
    if (rows.length >= page.total) return rows;
  }
}

/** An RFC 4180 reader: enough to read back what the export wrote. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted && ch === '"' && text[i + 1] === '"') {
      cell += '"';
      i++;
    } else if (quoted && ch === '"') {
      quoted = false;
    } else if (quoted) {
      cell += ch;
    } else if (ch === '"') {
      quoted = true;
    } else if (ch === ',') {
      record.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      i++;
    } else {
      cell += ch;
    }
  }
  return records;
}

function runExportTests(open: () => Promise<Store>): void {
  test.each([
    ['no filter', 'sort=position'],
    ['a reward range, by reward descending', 'min_reward=0.3&max_reward=0.9&sort=reward&order=desc'],
    ['failed rows', 'status=failed'],
    ['a text search', 'q=cmd'],
  ])('should export as JSONL the same rows as the samples route for %s', async (_name, query) => {
    const store = await open();
    const app = await exportApp(store);
    const res = await app.request(`http://localhost/api/runs/run-x/export?${query}&format=jsonl`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="run-x.jsonl"');
    const text = await res.text();
    const exported =
      text.trimEnd() === ''
        ? []
        : text
            .trimEnd()
            .split('\n')
            .map((line) => JSON.parse(line));
    const rows = await apiRows(app, query);
    expect(rows.length).toBeGreaterThan(0);
    expect(exported).toEqual(rows);
    await store.close();
  });

  test('should export as CSV the same rows, quoted, with formula-like text made inert', async () => {
    const store = await open();
    const app = await exportApp(store);
    const res = await app.request('http://localhost/api/runs/run-x/export?format=csv&sort=reward');
    expect(res.headers.get('content-type')).toContain('text/csv');
    const [header, ...records] = readCsv(await res.text());
    expect(header).toEqual([
      'sample_id',
      'status',
      'reward',
      'data_source',
      'group',
      'total_ms',
      'errors',
      'warnings',
      'response_preview',
      'response_chars',
      'component.math',
      'component.fmt',
    ]);
    const rows = await apiRows(app, 'sort=reward');
    expect(records).toHaveLength(rows.length);
    const inert = (text: string) => (/^[=+\-@]/.test(text) ? `'${text}` : text);
    records.forEach((record, i) => {
      const row = rows[i] as SampleRow;
      expect(record).toEqual([
        inert(row.sample_id),
        row.status,
        row.reward === null ? '' : String(row.reward),
        row.data_source ?? '',
        row.group ?? '',
        String(row.total_ms),
        String(row.errors),
        String(row.warnings),
        row.response_preview === null ? '' : inert(row.response_preview),
        row.response_chars === null ? '' : String(row.response_chars),
        row.components.math == null ? '' : String(row.components.math),
        row.components.fmt == null ? '' : String(row.components.fmt),
      ]);
    });
    // No cell a spreadsheet would evaluate.
    expect(records.flat().filter((cell) => /^[=+@]/.test(cell))).toEqual([]);
    expect(records.some((record) => record[0]?.startsWith("'=cmd|"))).toBe(true);
    await store.close();
  });

  test('should answer 400 for an unknown format and 404 for a missing run', async () => {
    const store = await open();
    const app = await exportApp(store);
    expect((await app.request('http://localhost/api/runs/run-x/export?format=xlsx')).status).toBe(400);
    expect((await app.request('http://localhost/api/runs/run-x/export?limit=5')).status).toBe(400);
    expect((await app.request('http://localhost/api/runs/run-none/export')).status).toBe(404);
    await store.close();
  });
}

describe('export route on SQLite', () => {
  runExportTests(async () => openSqliteStore(':memory:'));
});

describe.skipIf(!postgres.available)('export route on PostgreSQL', () => {
  runExportTests(async () => {
    if (!postgres.available) throw new Error('unreachable: skipped without a server');
    return openPostgresStore(await postgres.createDatabase(), { maxConnections: 2 });
  });
});
