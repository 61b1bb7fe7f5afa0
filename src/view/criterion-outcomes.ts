import type { Evidence } from '../core/index.js';

/** One criterion of one judgment: whether the response met it. */
export interface CriterionOutcome {
  readonly source: string;
  readonly kind: 'rubric' | 'medical_rubric' | 'claims';
  readonly criterion: string;
  readonly passed: boolean;
}

/**
 * The rubric judge's own default `criterion_pass_at`: its detail keeps each criterion's
 * normalized value but not the rubric's threshold, so the default is the one the page can know.
 */
export const RUBRIC_PASS_AT = 0.5;
/** The medical grades that count as meeting a criterion (fully met; no pitfall committed). */
const MEDICAL_PASSES = new Set(['fully_met', 'no_pitfall']);
/** Claims are the response's own, not shared across samples: all of a source's count as one criterion. */
export const CLAIMS_CRITERION = 'claim supported';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const records = (value: unknown): Record<string, unknown>[] =>
  Array.isArray(value) ? value.filter(isRecord) : [];

/**
 * The graded criteria a result's evidence carries: a `rubric` source's criteria (passed at
 * `RUBRIC_PASS_AT` of its value), a `medical_rubric` source's grades, a `claims` source's checked
 * claims (passed when supported; a claim only proposed, in an invalid check, has no verdict and is
 * left out). Other kinds, and details of another shape, give none.
 */
export function criterionOutcomes(
  evidence: readonly Pick<Evidence, 'source' | 'kind' | 'detail'>[],
): CriterionOutcome[] {
  const outcomes: CriterionOutcome[] = [];
  for (const { source, kind, detail } of evidence) {
    if (!isRecord(detail)) continue;
    if (kind === 'rubric') {
      for (const c of records(detail.criteria)) {
        if (typeof c.name === 'string' && typeof c.value === 'number')
          outcomes.push({ source, kind, criterion: c.name, passed: c.value >= RUBRIC_PASS_AT });
      }
    } else if (kind === 'medical_rubric') {
      for (const g of records(detail.grades)) {
        const name = typeof g.title === 'string' ? g.title : g.id;
        if (typeof name === 'string' && typeof g.grade === 'string')
          outcomes.push({ source, kind, criterion: name, passed: MEDICAL_PASSES.has(g.grade) });
      }
    } else if (kind === 'claims') {
      for (const c of records(detail.claims)) {
        if (c.verdict === 'supported' || c.verdict === 'fault')
          outcomes.push({ source, kind, criterion: CLAIMS_CRITERION, passed: c.verdict === 'supported' });
      }
    }
  }
  return outcomes;
}
