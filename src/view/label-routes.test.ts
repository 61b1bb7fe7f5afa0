import { afterAll, describe, expect, test } from 'vitest';
import { openPostgresStore, openSqliteStore, type Store } from '../store/index.js';
import { startTestPostgres } from '../store/test-utils/start-test-postgres.js';
import { okResult } from '../store/test-utils/store-conformance.js';
import { createViewApp } from './create-view-app.js';

const postgres = await startTestPostgres();
afterAll(() => postgres.stop());

const JSON_TYPE = { 'Content-Type': 'application/json', Host: 'localhost' };

async function labelledApp(store: Store, allowLabels: boolean) {
  await store.createRun({ id: 'run-l', spec_name: 'math', spec: {} });
  await store.saveResults('run-l', [okResult('s1', 1), okResult('s2', 0)]);
  const app = createViewApp({ store, assetsDir: '/nonexistent', allowLabels });
  const put = (sample: string, body: unknown, headers: Record<string, string> = JSON_TYPE) =>
    app.request(`http://localhost/api/runs/run-l/samples/${sample}/label`, {
      method: 'PUT',
      headers,
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
  // biome-ignore lint/suspicious/noExplicitAny: the tests read answers' JSON loosely, field by field
  const get = async (path: string): Promise<any> => (await app.request(`http://localhost${path}`)).json();
  return { app, put, get };
}

function runLabelApiTests(open: () => Promise<Store>): void {
  test('should refuse to write a label without --allow-labels, and say how to allow it', async () => {
    const store = await open();
    const { put, get } = await labelledApp(store, false);
    const res = await put('s1', { kind: 'correct' });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain('--allow-labels');
    expect(await store.listLabels('run-l')).toEqual([]);
    expect(await get('/api/store')).toMatchObject({ labels: false });
    expect(await get('/api/runs/run-l/labels')).toEqual({ labels: [] });
    await store.close();
  });

  test('should write a label and read it back per sample and per run, the last write winning', async () => {
    const store = await open();
    const { put, get } = await labelledApp(store, true);
    expect(await get('/api/store')).toMatchObject({ labels: true });
    expect(await get('/api/runs/run-l/samples/s1/label')).toEqual({ label: null });
    const first = await put('s1', { kind: 'incorrect', note: 'wrong unit' });
    expect(first.status).toBe(200);
    expect(((await first.json()) as { label: unknown }).label).toMatchObject({
      sample_id: 's1',
      kind: 'incorrect',
      score: null,
      note: 'wrong unit',
    });
    expect((await put('s1', { kind: 'score', score: 0.75 })).status).toBe(200);
    expect((await put('s2', { kind: 'correct' })).status).toBe(200);
    expect((await get('/api/runs/run-l/samples/s1/label')).label).toMatchObject({
      kind: 'score',
      score: 0.75,
      note: null,
    });
    const { labels } = await get('/api/runs/run-l/labels');
    expect(labels.map((l: { sample_id: string; kind: string }) => [l.sample_id, l.kind])).toEqual([
      ['s1', 'score'],
      ['s2', 'correct'],
    ]);
    await store.close();
  });

  test.each([
    ['a score above 1', { kind: 'score', score: 1.5 }, 'score'],
    ['a score without its value', { kind: 'score' }, 'score'],
    ['an unknown kind', { kind: 'maybe' }, 'kind'],
    ['an unknown field', { kind: 'correct', extra: 1 }, 'body'],
    ['a note that is not text', { kind: 'correct', note: 3 }, 'note'],
  ])('should answer 400 naming the field for %s, writing nothing', async (_name, body, path) => {
    const store = await open();
    const { put } = await labelledApp(store, true);
    const res = await put('s1', body);
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { error: { code: string; issues: { path: string }[] } };
    expect(answer.error.code).toBe('invalid_request');
    expect(answer.error.issues.map((i) => i.path)).toContain(path);
    expect(await store.listLabels('run-l')).toEqual([]);
    await store.close();
  });

  test('should refuse bodies that are not JSON, cross-site writes and unknown samples', async () => {
    const store = await open();
    const { put } = await labelledApp(store, true);
    expect((await put('s1', '{"kind":')).status).toBe(400);
    // A form another site posts cannot carry a JSON content type without a preflight.
    expect(
      (await put('s1', { kind: 'correct' }, { 'Content-Type': 'text/plain', Host: 'localhost' })).status,
    ).toBe(415);
    expect(
      (await put('s1', { kind: 'correct' }, { ...JSON_TYPE, Origin: 'http://evil.example' })).status,
    ).toBe(403);
    expect(
      (await put('s1', { kind: 'correct' }, { ...JSON_TYPE, 'Sec-Fetch-Site': 'cross-site' })).status,
    ).toBe(403);
    expect((await put('s1', { kind: 'correct' }, { ...JSON_TYPE, Origin: 'http://localhost' })).status).toBe(
      200,
    );
    expect((await put('s9', { kind: 'correct' })).status).toBe(404);
    expect((await put('s1', { kind: 'correct', note: 'x'.repeat(20_000) })).status).toBe(413);
    expect((await store.listLabels('run-l')).map((l) => l.sample_id)).toEqual(['s1']);
    await store.close();
  });
}

describe('label routes on SQLite', () => {
  runLabelApiTests(async () => openSqliteStore(':memory:'));
});

describe.skipIf(!postgres.available)('label routes on PostgreSQL', () => {
  runLabelApiTests(async () => {
    if (!postgres.available) throw new Error('unreachable: skipped without a server');
    return openPostgresStore(await postgres.createDatabase(), { maxConnections: 2 });
  });
});
