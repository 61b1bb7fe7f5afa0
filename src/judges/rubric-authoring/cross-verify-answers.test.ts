import { describe, expect, it } from 'vitest';
import { crossVerificationSchema } from './cross-verify-answers.js';

const check = (extra: Record<string, unknown>) => ({
  checks: [{ id: 'K1', contradicted_by: [], correct: 'yes', note: 'ok', ...extra }],
});
const problems = (schema: ReturnType<typeof crossVerificationSchema>, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('crossVerificationSchema with evidence', () => {
  const schema = crossVerificationSchema(['K1'], 2, false, ['E1', 'E2']);

  it('should accept a verdict that cites the passages it rests on', () => {
    expect(problems(schema, check({ evidence: 'supports', cites: ['E2'] }))).toEqual([]);
    expect(problems(schema, check({ evidence: 'not_covered' }))).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['no evidence verdict', {}, 'checks.0.evidence: say how the evidence relates'],
    [
      'a passage that was not given',
      { evidence: 'supports', cites: ['E3'] },
      'checks.0.cites: unknown passage E3 (cite E1, E2)',
    ],
    [
      'support without a citation',
      { evidence: 'supports', cites: [] },
      'checks.0.cites: cite the passages that support it',
    ],
    [
      'a contradiction without a citation',
      { evidence: 'contradicts' },
      'checks.0.cites: cite the passages that contradict it',
    ],
  ])('should re-ask on %s', (_, extra, problem) => {
    expect(problems(schema, check(extra))).toEqual([problem]);
  });

  it('should ask nothing about evidence when none was retrieved', () => {
    expect(problems(crossVerificationSchema(['K1'], 2, false), check({}))).toEqual([]);
  });
});
