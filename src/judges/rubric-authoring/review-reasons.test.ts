import { describe, expect, it } from 'vitest';
import { type KeyPointCheck, NO_RETRIEVAL_NOTE, reviewReasons } from './review-reasons.js';

const fine = (id: string): KeyPointCheck => ({ id, contradictedBy: 0, correct: 'yes', reference: 'agrees' });

describe('reviewReasons', () => {
  it.each<[string, Parameters<typeof reviewReasons>[0], string[]]>([
    [
      'agreement at the threshold passes',
      { answers: 3, agreement: 0.6, threshold: 0.6, checks: [fine('K1')] },
      [],
    ],
    [
      'agreement below the threshold',
      { answers: 3, agreement: 0.59, threshold: 0.6, checks: [fine('K1')] },
      ['low_agreement'],
    ],
    [
      'a single answer',
      { answers: 1, agreement: undefined, threshold: 0.6, checks: [] },
      ['too_few_answers'],
    ],
    [
      'nothing to compare',
      { answers: 2, agreement: undefined, threshold: 0.6, checks: [] },
      ['low_agreement'],
    ],
    [
      'contradictions, doubts and reference conflicts',
      {
        answers: 2,
        agreement: 0.9,
        threshold: 0.6,
        checks: [
          { ...fine('K1'), contradictedBy: 1 },
          { ...fine('K2'), correct: 'uncertain' },
          { ...fine('K3'), reference: 'contradicts' },
          { ...fine('K4'), reference: 'no_reference' },
        ],
      },
      ['contradiction', 'doubtful_point', 'reference_conflict'],
    ],
  ])('%s', (_, input, codes) => {
    expect(reviewReasons(input).map((r) => r.code)).toEqual(codes);
  });

  it('should flag a point the evidence contradicts unless the writer judged it wrong', () => {
    const reasons = reviewReasons({
      answers: 3,
      agreement: 0.8,
      threshold: 0.6,
      retrieved: 2,
      checks: [
        { ...fine('K1'), evidence: 'contradicts' },
        { ...fine('K2'), correct: 'no', evidence: 'contradicts' },
        { ...fine('K3'), evidence: 'supports' },
      ],
    });
    expect(reasons).toEqual([
      { code: 'doubtful_point', message: 'the writer doubts the correctness of K2' },
      { code: 'evidence_conflict', message: 'the retrieved evidence contradicts K1' },
    ]);
  });

  it.each<[number, string]>([
    [2, '2 retrieved passage(s) were checked against the key points and are in the notes'],
    [0, 'the evidence index found no passage for this query'],
  ])('should say where the evidence is when %i passage(s) were retrieved', (retrieved, note) => {
    const [reason] = reviewReasons({ answers: 3, agreement: 0.25, threshold: 0.6, retrieved, checks: [] });
    expect(reason?.message).toBe(`agreement 0.250 is below the threshold 0.6; ${note}`);
  });

  it('should name the points and say that no evidence was retrieved', () => {
    const reasons = reviewReasons({
      answers: 3,
      agreement: 0.25,
      threshold: 0.6,
      checks: [{ ...fine('K2'), correct: 'no' }, fine('K3'), { ...fine('K5'), correct: 'no' }],
    });
    expect(reasons[0]?.message).toBe(`agreement 0.250 is below the threshold 0.6; ${NO_RETRIEVAL_NOTE}`);
    expect(reasons[1]?.message).toBe('the writer doubts the correctness of K2, K5');
  });
});
