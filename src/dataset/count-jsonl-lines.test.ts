import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { countJsonlLines } from './jsonl-lines.js';

const dir = mkdtempSync(join(tmpdir(), 'rk-count-jsonl-lines-'));
const fileOf = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('countJsonlLines', () => {
  test.each([
    ['empty', '', 0],
    ['one line without a newline', '{"id": 1}', 1],
    ['one line with a newline', '{"id": 1}\n', 1],
    ['blank lines of spaces, tabs and carriage returns', '{"a": 1}\r\n\n  \n\t\r\n{"b": 2}\n \t', 2],
    ['content after leading blanks', '   {"a": 1}\n\t{"b": 2}', 2],
  ])('%s', async (name, text, count) => {
    expect(await countJsonlLines(fileOf(`${name}.jsonl`, text))).toBe(count);
  });

  test('should count lines that cross the reads, blank or not, as a line-by-line count does', async () => {
    // Lines of many lengths, some blank, over more than one 1 MiB read, so lines are cut between reads.
    const lines = Array.from({ length: 40_000 }, (_, i) =>
      i % 7 === 0 ? ' '.repeat(i % 13) : `${' '.repeat(i % 3)}{"id": ${i}, "pad": "${'x'.repeat(i % 97)}"}`,
    );
    const text = `${lines.join('\n')}\n   `;
    expect(text.length).toBeGreaterThan(2 ** 21);
    const expected = text.split('\n').filter((line) => line.trim() !== '').length;
    expect(await countJsonlLines(fileOf('large.jsonl', text))).toBe(expected);
  });
});
