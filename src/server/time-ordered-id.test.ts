import { describe, expect, it } from 'vitest';
import { createTimeOrderedIds } from './time-ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('createTimeOrderedIds', () => {
  it('makes RFC 9562 version-7 UUIDs whose first 48 bits are the milliseconds', () => {
    const id = createTimeOrderedIds(() => 0x0191_2345_6789)();
    expect(id).toMatch(UUID_V7);
    expect(id.slice(0, 13)).toBe('01912345-6789');
  });

  it('sorts in the order made, within one millisecond and when the clock steps back', () => {
    const clock = [1000, 1000, 1000, 999, 1001, 1001];
    let i = 0;
    const next = createTimeOrderedIds(() => clock[i++] as number);
    const ids = clock.map(() => next());
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('moves to the next millisecond when the counter of one is spent', () => {
    const next = createTimeOrderedIds(() => 5);
    const ids = Array.from({ length: 0x1002 }, next);
    expect([...ids].sort()).toEqual(ids);
    expect(ids.at(-1)?.slice(0, 13)).toBe('00000000-0006');
  });

  it('draws fresh random bits for every id, across refills of its pool of random bytes', () => {
    const next = createTimeOrderedIds(() => 9);
    const ids = Array.from({ length: 2000 }, next);
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
    expect(new Set(ids.map((id) => id.slice(19))).size).toBe(ids.length);
  });

  it('differs between generators made in the same millisecond', () => {
    const a = createTimeOrderedIds(() => 7)();
    const b = createTimeOrderedIds(() => 7)();
    expect(a).not.toBe(b);
  });
});
