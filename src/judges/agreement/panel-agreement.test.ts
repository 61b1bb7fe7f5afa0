import { describe, expect, it } from 'vitest';
import { type PanelRatings, panelAgreement } from './panel-agreement.js';

const judged = (verdicts: string[], extra: Partial<PanelRatings> = {}): PanelRatings => ({
  members: verdicts.map((verdict, i) => ({
    name: `m${i}`,
    verdict,
    ...(verdict !== 'error' && { score: verdict === 'pass' ? 1 : 0 }),
  })),
  escalated: false,
  ...extra,
});

describe('panelAgreement', () => {
  it("should give a two-member panel Cohen's kappa, and Fleiss' kappa and alpha that match the tables", () => {
    // Wikipedia's 50 proposals (kappa 0.4), as a panel's verdicts.
    const rows = [
      ...Array.from({ length: 20 }, () => judged(['pass', 'pass'])),
      ...Array.from({ length: 5 }, () => judged(['pass', 'fail'])),
      ...Array.from({ length: 10 }, () => judged(['fail', 'pass'])),
      ...Array.from({ length: 15 }, () => judged(['fail', 'fail'])),
    ];
    const report = panelAgreement(rows);
    expect(report.members).toEqual(['m0', 'm1']);
    expect(report.cohen_kappa?.value).toBeCloseTo(0.4, 12);
    expect(report.fleiss_kappa.units).toBe(50);
    // With pass/fail scored 1/0, nominal and interval alpha coincide.
    expect(report.alpha_nominal.value).toBeCloseTo(report.alpha_interval.value as number, 12);
  });

  it('should leave a failed member out of kappa and count it missing in alpha', () => {
    const report = panelAgreement([
      judged(['pass', 'pass', 'pass']),
      judged(['fail', 'fail', 'pass']),
      judged(['pass', 'error', 'pass']),
    ]);
    expect(report.cohen_kappa).toBeUndefined();
    expect(report.fleiss_kappa.units).toBe(2);
    expect(report.alpha_nominal.units).toBe(3);
  });

  it('should report cost per judgment and the escalation rate, invalid judgments included', () => {
    const report = panelAgreement([
      judged(['pass', 'fail'], { escalated: true, calls: 3, tokens: 45 }),
      judged(['pass', 'pass'], { calls: 2, tokens: 30 }),
      judged(['error', 'error'], { calls: 0 }),
      judged(['fail', 'fail'], { calls: 2, tokens: 30 }),
    ]);
    expect(report).toMatchObject({
      judgments: 4,
      escalation_rate: 0.25,
      calls_per_judgment: 7 / 4,
      tokens_per_judgment: 105 / 4,
    });
  });

  it('should say why, not NaN, when every member always agrees on one verdict', () => {
    const report = panelAgreement([judged(['pass', 'pass']), judged(['pass', 'pass'])]);
    expect(report.fleiss_kappa).toMatchObject({ value: null, reason: 'every rating is in one category' });
    expect(report.alpha_nominal.value).toBeNull();
    expect(panelAgreement([]).fleiss_kappa).toMatchObject({ value: null, units: 0 });
  });
});
