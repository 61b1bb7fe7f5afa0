import { type AgreementStatistic, noAgreement } from './agreement-statistic.js';

/** Krippendorff's difference functions: which disagreements count, and by how much. */
export type AlphaLevel = 'nominal' | 'ordinal' | 'interval';

/** One unit's ratings, one per rater; `null` or `undefined` where a rater gave none. */
export type AlphaUnit<V> = readonly (V | null | undefined)[];

/**
 * Krippendorff's alpha, 1 − D_o / D_e, from the coincidence matrix of the pairable values (units
 * with at least two ratings), as in Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability".
 * Missing ratings are allowed. Ordinal and interval levels read values as numbers.
 */
export function krippendorffAlpha(units: readonly AlphaUnit<number>[], level: AlphaLevel): AgreementStatistic;
export function krippendorffAlpha(
  units: readonly AlphaUnit<string | number>[],
  level: 'nominal',
): AgreementStatistic;
export function krippendorffAlpha(
  units: readonly AlphaUnit<string | number>[],
  level: AlphaLevel,
): AgreementStatistic {
  const pairable = units
    .map((unit) => unit.filter((v): v is string | number => v !== null && v !== undefined))
    .filter((values) => values.length >= 2);
  if (pairable.length === 0) return noAgreement(0, 'no unit has two ratings');
  const values = [...new Set(pairable.flat())].sort((a, b) =>
    typeof a === 'number' && typeof b === 'number' ? a - b : String(a).localeCompare(String(b)),
  );
  const index = new Map(values.map((v, i) => [v, i]));
  const k = values.length;
  // o[c][k]: each ordered pair of ratings within a unit of m ratings adds 1 / (m − 1).
  const o = Array.from({ length: k }, () => new Array<number>(k).fill(0));
  for (const unit of pairable) {
    const m = unit.length;
    for (let i = 0; i < m; i++) {
      for (let j = 0; j < m; j++) {
        if (i === j) continue;
        const row = o[index.get(unit[i] as string | number) as number] as number[];
        const col = index.get(unit[j] as string | number) as number;
        row[col] = (row[col] ?? 0) + 1 / (m - 1);
      }
    }
  }
  const marginals = o.map((row) => row.reduce((a, b) => a + b, 0));
  const n = marginals.reduce((a, b) => a + b, 0);
  const delta = differenceFunction(level, values, marginals);
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < k; c++) {
    for (let d = 0; d < k; d++) {
      const distance = delta(c, d);
      observed += ((o[c] as number[])[d] as number) * distance;
      expected += (marginals[c] as number) * (marginals[d] as number) * distance;
    }
  }
  if (expected === 0) return noAgreement(pairable.length, 'every pairable rating has the same value');
  return { value: 1 - ((n - 1) * observed) / expected, units: pairable.length };
}

/** δ²(c, d) over the sorted distinct values, by index. */
function differenceFunction(
  level: AlphaLevel,
  values: readonly (string | number)[],
  marginals: readonly number[],
): (c: number, d: number) => number {
  if (level === 'nominal') return (c, d) => (c === d ? 0 : 1);
  if (level === 'interval') {
    const numbers = values.map(Number);
    return (c, d) => ((numbers[c] as number) - (numbers[d] as number)) ** 2;
  }
  // Ordinal: the marginals from c to d, less half of the two ends, squared.
  return (c, d) => {
    const [lo, hi] = c <= d ? [c, d] : [d, c];
    let between = 0;
    for (let g = lo; g <= hi; g++) between += marginals[g] as number;
    return (between - ((marginals[lo] as number) + (marginals[hi] as number)) / 2) ** 2;
  };
}
