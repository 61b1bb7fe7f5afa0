import { describe, expect, test } from 'vitest';
import { escapeText, jsonParam, parseJsonColumn, unescapeText } from './postgres-text-escape.js';

describe('escapeText / unescapeText', () => {
  test.each([
    ['plain text', 'plain text'],
    ['a\0b', 'a\uE0000b'],
    ['\uE000', '\uE000e'],
    ['\uE0000', '\uE000e0'],
    ['\0\uE000\0', '\uE0000\uE000e\uE0000'],
    ['', ''],
  ])('should write %j as %j and read it back', (original, stored) => {
    expect(escapeText(original)).toBe(stored);
    expect(escapeText(original)).not.toContain('\0');
    expect(unescapeText(stored)).toBe(original);
  });
});

describe('jsonParam / parseJsonColumn', () => {
  test.each([
    [{ a: 'x\0y' }],
    [{ 'k\0': ['\uE000', '\\u0000', '\\\0', 'ok'] }],
    [['\\', '\\\\u0000\u0001']],
    [{ n: 1.5, b: true, z: null }],
  ])('should round-trip %j through escaping', (value) => {
    const stored = escapeText(jsonParam(value));
    expect(stored).not.toContain('\0');
    expect(parseJsonColumn(unescapeText(stored))).toEqual(value);
  });

  test('should keep a literal backslash-u0000 text apart from a NUL', () => {
    expect(jsonParam(['\\u0000'])).toBe(JSON.stringify(['\\u0000']));
    expect(jsonParam(['\0'])).toBe('["\0"]');
  });
});
