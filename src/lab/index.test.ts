import { describe, expect, it } from 'vitest';

describe('rewardkit/lab', () => {
  // The entry lists lab-surface's values by name (it must not import them statically, see
  // index.ts): a value added to lab-surface but not to that list would silently not be public.
  it('exports every value of lab-surface, and nothing else', async () => {
    const surface = Object.keys(await import('./lab-surface.js')).sort();
    const entry = Object.keys(await import('./index.js')).sort();
    expect(entry).toEqual(surface);
  });
});
