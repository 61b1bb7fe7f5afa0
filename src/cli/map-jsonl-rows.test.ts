import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { mapJsonlRows } from './map-jsonl-rows.js';

const RowSchema = z.object({ id: z.string(), n: z.number() });

function files(lines: readonly string[]) {
  const dir = mkdtempSync(join(tmpdir(), 'rewardkit-map-'));
  const input = join(dir, 'in.jsonl');
  writeFileSync(input, `${lines.join('\n')}\n`);
  return { input, output: join(dir, 'out.jsonl') };
}

const rows = (...ids: string[]) => ids.map((id, i) => JSON.stringify({ id, n: i }));

const readLines = (path: string) =>
  readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

function collector() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      for (const l of String(chunk).split('\n')) if (l !== '') lines.push(JSON.parse(l));
      callback();
    },
  });
  return { lines, sink };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('mapJsonlRows', () => {
  test('should write in input order while later rows finish first, never more than the concurrency at once', async () => {
    const { input } = files(rows('a', 'b', 'c', 'd', 'e', 'f'));
    const { lines, sink } = collector();
    let inFlight = 0;
    let most = 0;
    const summary = await mapJsonlRows({
      input,
      output: sink,
      concurrency: 3,
      schema: RowSchema,
      idOf: (row) => row.id,
      handle: async (row) => {
        most = Math.max(most, ++inFlight);
        await sleep((6 - row.n) * 5);
        inFlight--;
        return { double: row.n * 2 };
      },
    });
    expect(lines).toEqual(['a', 'b', 'c', 'd', 'e', 'f'].map((id, n) => ({ id, double: n * 2 })));
    expect(most).toBe(3);
    expect(summary).toEqual({ rows: 6, ok: 6, failed: 0, skipped: 0, interrupted: false, unwritten: 0 });
  });

  test('should record malformed, invalid, repeated and throwing rows with their reason, and count a result with "error" as failed', async () => {
    const { input } = files([
      '{"id": "a", "n": 1}',
      '{"id": "b", "n": ',
      '{"id": "c", "n": "three"}',
      '{"id": "a", "n": 4}',
      '{"id": "boom", "n": 5}',
      '{"id": "invalid", "n": 6}',
      '',
      '{"id": "z", "n": 7}',
    ]);
    const { lines, sink } = collector();
    const summary = await mapJsonlRows({
      input,
      inputName: 'in.jsonl',
      output: sink,
      concurrency: 2,
      schema: RowSchema,
      idOf: (row) => row.id,
      handle: (row) => {
        if (row.id === 'boom') throw new Error('backend down');
        if (row.id === 'invalid') return { verdict: 'invalid', error: 'no readable verdict' };
        return { n: row.n };
      },
    });
    expect(lines.map((l) => [l.id, l.error ?? l.n])).toEqual([
      ['a', 1],
      ['line:2', expect.stringMatching(/^in\.jsonl:2: invalid JSON/)],
      ['c', expect.stringMatching(/^in\.jsonl:3: field "n"/)],
      [
        'line:4',
        expect.stringMatching(/^in\.jsonl:4: field "id": duplicate id "a" \(first seen on line 1\)/),
      ],
      ['boom', 'in.jsonl:5: backend down'],
      ['invalid', 'no readable verdict'],
      ['z', 7],
    ]);
    expect(lines[5]).toEqual({ id: 'invalid', verdict: 'invalid', error: 'no readable verdict' });
    expect(summary).toEqual({ rows: 7, ok: 2, failed: 5, skipped: 0, interrupted: false, unwritten: 0 });
  });

  test('should skip ids already in the output file, failed ones included, and handle only the rest', async () => {
    const { input, output } = files(['{"id": "a", "n": 0}', '{"id": "b", "n": ', '{"id": "c", "n": 2}']);
    const handled: string[] = [];
    const options = {
      input,
      output,
      schema: RowSchema,
      idOf: (row: { id: string }) => row.id,
      handle: (row: { id: string; n: number }) => {
        handled.push(row.id);
        return { n: row.n };
      },
    };
    // An interrupted run: "a" written, then a torn line.
    writeFileSync(output, '{"id":"a","n":0}\n{"id":"c","n"');
    const warnings: string[] = [];
    const first = await mapJsonlRows({ ...options, onWarning: (w) => warnings.push(w) });
    expect(handled).toEqual(['c']);
    expect(warnings).toEqual([expect.stringMatching(/removed a partly written last line/)]);
    expect(first).toEqual({ rows: 3, ok: 1, failed: 1, skipped: 1, interrupted: false, unwritten: 0 });
    expect(readLines(output).map((l) => l.id)).toEqual(['a', 'line:2', 'c']);

    const again = await mapJsonlRows(options);
    expect(handled).toEqual(['c']);
    expect(again).toEqual({ rows: 3, ok: 0, failed: 0, skipped: 3, interrupted: false, unwritten: 0 });
    expect(readLines(output)).toHaveLength(3);

    const fresh = await mapJsonlRows({ ...options, resume: false });
    expect(handled).toEqual(['c', 'a', 'c']);
    expect(fresh).toEqual({ rows: 3, ok: 2, failed: 1, skipped: 0, interrupted: false, unwritten: 0 });
    expect(readLines(output).map((l) => l.id)).toEqual(['a', 'line:2', 'c']);
  });

  test('should leave withheld lines unwritten and uncounted, so a rerun handles their rows', async () => {
    const { input, output } = files(rows('a', 'b', 'c'));
    let down = false;
    const options = {
      input,
      output,
      schema: RowSchema,
      idOf: (row: { id: string }) => row.id,
      handle: (row: { id: string; n: number }) => {
        if (row.id === 'b') down = true;
        if (down) throw new Error('backend down');
        return { n: row.n };
      },
      withhold: (line: Record<string, unknown>) => down && 'error' in line,
    };
    const first = await mapJsonlRows(options);
    expect(first).toEqual({ rows: 1, ok: 1, failed: 0, skipped: 0, interrupted: false, unwritten: 2 });
    expect(readLines(output).map((l) => l.id)).toEqual(['a']);
    down = false;
    const again = await mapJsonlRows({
      ...options,
      handle: (row: { id: string; n: number }) => ({ n: row.n }),
    });
    expect(again).toEqual({ rows: 3, ok: 2, failed: 0, skipped: 1, interrupted: false, unwritten: 0 });
    expect(readLines(output).map((l) => l.id)).toEqual(['a', 'b', 'c']);
  });

  test('should stop reading when the signal fires, and still write the rows in flight', async () => {
    const { input, output } = files(rows('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'));
    const controller = new AbortController();
    const summary = await mapJsonlRows({
      input,
      output,
      concurrency: 2,
      signal: controller.signal,
      schema: RowSchema,
      idOf: (row) => row.id,
      handle: async (row) => {
        if (row.id === 'b') controller.abort();
        await sleep(10);
        return { n: row.n };
      },
    });
    expect(summary.interrupted).toBe(true);
    const written = readLines(output).map((l) => l.id);
    // Rows that started before the abort are written in order; nothing after the last one read.
    expect(written.slice(0, 2)).toEqual(['a', 'b']);
    expect(written.length).toBeLessThan(8);
    expect(written).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].slice(0, written.length));
    expect(summary).toMatchObject({ rows: written.length, ok: written.length, failed: 0, skipped: 0 });
  });
});
