import { describe, expect, test } from 'vitest';
import { parseByteSize } from './parse-byte-size.js';

describe('parseByteSize', () => {
  test.each([
    ['1048576', 1048576],
    ['16MiB', 16 * 1024 * 1024],
    ['16mib', 16 * 1024 * 1024],
    ['500kb', 500_000],
    ['1.5KiB', 1536],
    ['2 GB', 2_000_000_000],
  ])('should read %s as %d bytes', (text, bytes) => {
    expect(parseByteSize('--max-body')(text)).toBe(bytes);
  });

  test.each(['', '0', '-1', '12 parsecs', 'MiB'])('should refuse "%s", naming the flag', (text) => {
    expect(() => parseByteSize('--max-body')(text)).toThrow(/--max-body takes a size/);
  });
});
