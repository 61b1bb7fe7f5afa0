import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openJsonlResultSink } from './jsonl-result-sink.js';

const dir = () => mkdtempSync(join(tmpdir(), 'rk-jsonl-sink-'));
const read = (path: string) => readFileSync(path, 'utf8');

describe('openJsonlResultSink on a file', () => {
  test('should write every line by close, and a line within a tenth of a second with no writes after it', async () => {
    const path = join(dir(), 'out.jsonl');
    const sink = await openJsonlResultSink<{ id: string }>(path, false);
    // The file is there from the start (empty), as a stream would have made it.
    expect(read(path)).toBe('');
    await sink.write({ id: 'a' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(read(path)).toBe('{"id":"a"}\n');
    await sink.writeLines('{"id":"b"}\n{"id":"c"}\n');
    await sink.close();
    expect(read(path)).toBe('{"id":"a"}\n{"id":"b"}\n{"id":"c"}\n');
  });

  test('should write whole lines a batch at a time while writing goes on, and append when resuming', async () => {
    const path = join(dir(), 'out.jsonl');
    writeFileSync(path, '{"id":"old"}\n');
    const sink = await openJsonlResultSink<{ id: string; pad: string }>(path, true);
    expect([...sink.done]).toEqual(['old']);
    for (let i = 0; i < 2000; i++) await sink.write({ id: `r${i}`, pad: 'x'.repeat(100) });
    // Some batches are in the file already, each ending with a whole line.
    const early = read(path);
    expect(early.length).toBeGreaterThan(65_536);
    expect(early.endsWith('\n')).toBe(true);
    await sink.close();
    const ids = read(path)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line).id);
    expect(ids).toEqual(['old', ...Array.from({ length: 2000 }, (_, i) => `r${i}`)]);
  });

  test('should refuse an output it cannot open as RK_OUTPUT, naming it', async () => {
    const folder = dir();
    await expect(openJsonlResultSink(folder, false)).rejects.toMatchObject({
      code: 'RK_OUTPUT',
      message: expect.stringMatching(new RegExp(`^Writing ${folder} failed: EISDIR`)),
    });
  });
});
