import { describe, expect, test } from 'vitest';
import { readCheckerReply } from './read-checker-reply.js';

const item = (id: string, answer: string) => ({ id, evidence: `quote for ${id}`, answer });

describe('readCheckerReply', () => {
  test('should match items by id whatever their order', () => {
    const got = readCheckerReply(['C1', 'C2', 'C3'], [item('C3', '3'), item('C1', '1'), item('C2', '2')]);
    expect([...got.byId.entries()].map(([id, i]) => [id, i.answer])).toEqual([
      ['C3', '3'],
      ['C1', '1'],
      ['C2', '2'],
    ]);
    expect(got).toMatchObject({ missing: [], unknown: [], duplicates: [] });
  });

  test('should list skipped ids as missing', () => {
    const got = readCheckerReply(['C1', 'C2', 'C3'], [item('C2', '2')]);
    expect(got.missing).toEqual(['C1', 'C3']);
  });

  test('should not credit renumbered items to any claim', () => {
    const got = readCheckerReply(['C1', 'C2'], [item('1', 'a'), item('2', 'b'), item('C7', 'c')]);
    expect(got.byId.size).toBe(0);
    expect(got).toMatchObject({ missing: ['C1', 'C2'], unknown: ['1', '2', 'C7'] });
  });

  test('should keep the first of duplicated items, and read ids case- and space-insensitively', () => {
    const got = readCheckerReply(
      ['C1', 'C2'],
      [item(' c1 ', 'first'), item('C1', 'second'), item('C2', 'x')],
    );
    expect(got.byId.get('C1')?.answer).toBe('first');
    expect(got).toMatchObject({ missing: [], unknown: [], duplicates: ['C1'] });
  });
});
