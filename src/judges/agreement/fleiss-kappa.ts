import { RewardKitError } from '../../core/index.js';
import { type AgreementStatistic, noAgreement } from './agreement-statistic.js';

/**
 * Fleiss' kappa of many raters over nominal categories. `counts[i][j]` is how many raters put
 * subject i in category j; every subject has the same number of raters (Fleiss 1971).
 */
export function fleissKappa(counts: readonly (readonly number[])[]): AgreementStatistic {
  const subjects = counts.length;
  if (subjects === 0) return noAgreement(0, 'no subject was rated');
  const raters = sum(counts[0] ?? []);
  if (raters < 2) throw new RewardKitError('RK_USAGE', 'Fleiss kappa needs at least two raters per subject');
  counts.forEach((row, i) => {
    if (sum(row) !== raters) {
      throw new RewardKitError(
        'RK_USAGE',
        `subject ${i} has ${sum(row)} ratings, subject 0 has ${raters}: Fleiss kappa needs the same number for each`,
      );
    }
  });
  const categories = Math.max(...counts.map((row) => row.length));
  const shares = Array.from(
    { length: categories },
    (_, j) => sum(counts.map((row) => row[j] ?? 0)) / (subjects * raters),
  );
  const agreementOf = (row: readonly number[]) =>
    (sum(row.map((c) => c * c)) - raters) / (raters * (raters - 1));
  const observed = sum(counts.map(agreementOf)) / subjects;
  const expected = sum(shares.map((p) => p * p));
  if (expected >= 1) return noAgreement(subjects, 'every rating is in one category');
  return { value: (observed - expected) / (1 - expected), units: subjects };
}

/** The counts matrix of subjects rated with labels: one row per subject, one column per category. */
export function categoryCounts<C>(subjects: readonly (readonly C[])[]): number[][] {
  const categories = [...new Set(subjects.flat())];
  return subjects.map((labels) => categories.map((c) => labels.filter((l) => l === c).length));
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
