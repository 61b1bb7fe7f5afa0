import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readMethodOptions } from './advantages-options.js';

describe('readMethodOptions', () => {
  const dir = mkdtempSync(join(tmpdir(), 'rk-options-'));

  test.each([
    { name: 'no flag', flag: undefined, want: {} },
    { name: 'inline JSON', flag: ' {"std": "none", "eps": 0.01}', want: { std: 'none', eps: 0.01 } },
  ])('should read $name', ({ flag, want }) => {
    expect(readMethodOptions(flag)).toEqual(want);
  });

  test('should read a YAML file, and an empty one as no options', () => {
    const yaml = join(dir, 'o.yaml');
    writeFileSync(yaml, 'priorities: [1.5, 2, 1]\nnormalize: none\n');
    expect(readMethodOptions(yaml)).toEqual({ priorities: [1.5, 2, 1], normalize: 'none' });
    const empty = join(dir, 'empty.yaml');
    writeFileSync(empty, '');
    expect(readMethodOptions(empty)).toEqual({});
  });

  test('should name the flag when the JSON is broken or the file is missing', () => {
    expect(() => readMethodOptions('{"std": ')).toThrow(/^--options: not valid JSON/);
    expect(() => readMethodOptions(join(dir, 'nope.yaml'))).toThrow(/--options: no such file ".*nope.yaml"/);
  });
});
