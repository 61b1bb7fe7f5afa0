import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { verifyMath } from './index.js';

/**
 * Suites transcribed from other graders' public test cases (each row names its file and commit):
 * the verifier must agree with at least 95% of each and accept nothing a suite calls wrong.
 */
const SUITES = ['nemo-skills-math-equal', 'multilingual-answer-markers', 'option-letters-in-prose'] as const;
const AGREEMENT_FLOOR = 0.95;

const caseSchema = z.object({
  response: z.string(),
  reference: z.string(),
  expected: z.boolean(),
  source: z.string().min(1),
});

function readSuite(name: string): Array<z.infer<typeof caseSchema>> {
  const file = new URL(`./__fixtures__/${name}.jsonl`, import.meta.url);
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line, i) => {
      const parsed = caseSchema.safeParse(JSON.parse(line));
      if (!parsed.success) throw new Error(`${name}.jsonl line ${i + 1}: ${parsed.error.message}`);
      return parsed.data;
    });
}

describe.each(SUITES)('the %s suite', (name) => {
  const cases = readSuite(name);
  const verdicts = cases.map((c) => ({ ...c, got: verifyMath(c.response, c.reference) }));

  it('has cases of both kinds', () => {
    expect(cases.some((c) => c.expected)).toBe(true);
    expect(cases.some((c) => !c.expected)).toBe(true);
  });

  it('accepts nothing the suite calls wrong', () => {
    const falseAccepts = verdicts
      .filter((v) => !v.expected && v.got.correct)
      .map((v) => `${JSON.stringify(v.response)} | ${JSON.stringify(v.reference)}: ${v.got.reason}`);
    expect(falseAccepts).toEqual([]);
  });

  it(`agrees on at least ${AGREEMENT_FLOOR * 100}% of the cases`, () => {
    const disagreements = verdicts.filter((v) => v.got.correct !== v.expected);
    const agreement = 1 - disagreements.length / cases.length;
    const listed = disagreements.map(
      (v) =>
        `${JSON.stringify(v.response)} | ${JSON.stringify(v.reference)} -> ${v.got.status}: ${v.got.reason}`,
    );
    expect(agreement, listed.join('\n')).toBeGreaterThanOrEqual(AGREEMENT_FLOOR);
  });
});
