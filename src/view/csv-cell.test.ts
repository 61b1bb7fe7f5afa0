import { describe, expect, test } from 'vitest';
import { csvCell } from './csv-cell.js';

describe('csvCell', () => {
  test.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("http://x")', `"'=HYPERLINK(""http://x"")"`],
    ['+1', "'+1"],
    ['-2+3', "'-2+3"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['', ''],
  ])('should write %j as %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  test('should write numbers as they are, negative ones too, and nothing for null', () => {
    expect(csvCell(-0.5)).toBe('-0.5');
    expect(csvCell(3)).toBe('3');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
  });
});
