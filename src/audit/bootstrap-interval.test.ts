import { describe, expect, it } from 'vitest';
import { bootstrapInterval } from './bootstrap-interval.js';

const data = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8];
const mean = (idx: readonly number[]) => idx.reduce((s, i) => s + (data[i] as number), 0) / idx.length;
const sampleMean = mean(data.map((_, i) => i));

describe('bootstrapInterval', () => {
  it('surrounds the sample mean, repeats on a seed and moves with it', () => {
    const ci = bootstrapInterval(data.length, mean, { seed: 7 });
    if (ci === null) throw new Error('no interval');
    expect(ci[0]).toBeLessThan(sampleMean);
    expect(ci[1]).toBeGreaterThan(sampleMean);
    expect(bootstrapInterval(data.length, mean, { seed: 7 })).toEqual(ci);
    expect(bootstrapInterval(data.length, mean, { seed: 8 })).not.toEqual(ci);
  });

  it('shifts by the bootstrap bias when asked', () => {
    const plain = bootstrapInterval(data.length, mean, { seed: 7 });
    // Pretending the estimate is 1 higher than the resamples' centre moves the interval up by about 1.
    const shifted = bootstrapInterval(data.length, mean, { seed: 7 }, { estimate: sampleMean + 1 });
    if (plain === null || shifted === null) throw new Error('no interval');
    expect(shifted[0] - plain[0]).toBeCloseTo(shifted[1] - plain[1], 12);
    expect(shifted[0] - plain[0]).toBeGreaterThan(0.8);
    expect(shifted[0] - plain[0]).toBeLessThan(1.2);
  });

  it('is null when most resamples leave the statistic undefined', () => {
    expect(bootstrapInterval(data.length, () => null, { seed: 1 })).toBeNull();
  });
});
