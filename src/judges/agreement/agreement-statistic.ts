/**
 * An agreement coefficient, or why there is none: a coefficient whose chance agreement is total
 * (every rating in one category) is 0/0, and is said so instead of reported as NaN.
 */
export type AgreementStatistic =
  | { readonly value: number; readonly units: number }
  | { readonly value: null; readonly units: number; readonly reason: string };

export const noAgreement = (units: number, reason: string): AgreementStatistic => ({
  value: null,
  units,
  reason,
});
