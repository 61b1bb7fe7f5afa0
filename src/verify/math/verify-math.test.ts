import { describe, expect, it } from 'vitest';
import {
  extractMathAnswer,
  lastBoxed,
  mathEquivalent,
  normalizeMathAnswer,
  parseMathValue,
  verifyMath,
} from './index.js';

describe('extractMathAnswer', () => {
  it.each([
    ['The answer is \\boxed{\\frac{1}{2}}.', '\\frac{1}{2}', 'boxed'],
    ['nested \\boxed{\\frac{\\sqrt{3}}{2}} end', '\\frac{\\sqrt{3}}{2}', 'boxed'],
    ['first \\boxed{1}, then corrected: \\boxed{2}', '2', 'boxed'],
    ['set \\boxed{\\{1, 2\\}}', '\\{1, 2\\}', 'boxed'],
    ['\\boxed 7 is it', '7', 'boxed'],
    ['\\fbox{12}', '12', 'boxed'],
    ['unbalanced \\boxed{3 and then \\boxed{4}', '4', 'boxed'],
    ['<think>maybe \\boxed{3}</think>The answer is \\boxed{5}', '5', 'boxed'],
    ['<think>it is 3</think> So the final answer is 42.', '42', 'anchor'],
    ['Therefore, the final answer is $x = 5$. I hope it is correct.', 'x = 5', 'anchor'],
    ['Answer: 3.5\nmore text', '3.5', 'anchor'],
    ['**Final Answer:** 12', '12', 'anchor'],
    ['She pays 3 + 4 = 7 dollars.\n#### 7', '7', 'gsm8k'],
    ['He has 1,234 apples and sells 34, leaving 1,200', '1,200', 'last_number'],
    ['so the result is -0.75 overall', '-0.75', 'anchor'],
    ['we get 3/4 of it', '3/4', 'last_number'],
  ])('%s', (response, answer, rule) => {
    const got = extractMathAnswer(response);
    expect(got.answer).toBe(answer);
    expect(got.rule).toBe(rule);
  });

  it('finds nothing in an unterminated think block', () => {
    const got = extractMathAnswer('<think>the answer is \\boxed{3} ... still thinking');
    expect(got).toMatchObject({ answer: null, rule: 'none' });
    expect(got.reason).toMatch(/never closed/);
  });

  it('finds nothing when there is no number and the fallback is off', () => {
    expect(extractMathAnswer('I do not know', { lastNumberFallback: true }).answer).toBeNull();
    expect(extractMathAnswer('roughly 12 of them', { lastNumberFallback: false }).answer).toBeNull();
  });

  it('balances braces in \\boxed', () => {
    expect(lastBoxed('\\boxed{a{b{c}}d} tail')).toBe('a{b{c}}d');
    expect(lastBoxed('\\boxed{\\{1\\}}')).toBe('\\{1\\}');
    expect(lastBoxed('no box')).toBeNull();
  });
});

describe('normalizeMathAnswer', () => {
  it.each([
    ['$\\dfrac{1}{2}$', '\\frac{1}{2}'],
    ['\\frac12', '\\frac{1}{2}'],
    ['\\left( 1, 2 \\right)', '( 1, 2 )'],
    ['\\text{(B)}', '(B)'],
    ['30^\\circ', '30'],
    ['30°', '30'],
    ['\\$1,000', '1000'],
    ['5\\text{ cm}^2', '5'],
    ['12 apples', '12'],
    ['1{,}000{,}000', '1000000'],
    ['−3', '-3'],
    ['7.', '7'],
    ['\\sqrt2', '\\sqrt{2}'],
    ['10 \\text{ dollars}', '10'],
  ])('%s -> %s', (raw, text) => {
    expect(normalizeMathAnswer(raw).text).toBe(text);
  });

  it('remembers a percent sign', () => {
    expect(normalizeMathAnswer('50\\%')).toEqual({ text: '50', percent: true });
    expect(normalizeMathAnswer('50')).toEqual({ text: '50', percent: false });
  });
});

describe('parseMathValue', () => {
  it.each([
    ['(1, 2)', 'tuple'],
    ['[1, 2)', 'interval'],
    ['[1, 2]', 'interval'],
    ['\\{1, 2\\}', 'set'],
    ['1, 2', 'list'],
    ['(-\\infty, 0) \\cup (1, \\infty)', 'union'],
    ['\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}', 'matrix'],
    ['y = 2x + 1', 'equation'],
    ['x > 3', 'interval'],
    ['(B)', 'choice'],
    ['\\frac{\\sqrt{3}}{2}', 'expression'],
    ['1 \\pm \\sqrt{2}', 'set'],
    ['\\text{no solution}', 'text'],
  ])('%s is a %s', (text, kind) => {
    expect(parseMathValue(normalizeMathAnswer(text).text).kind).toBe(kind);
  });
});

/** [candidate answer, reference, equal?] — what careful graders accept and reject. */
const EQUIVALENCE: Array<[string, string, boolean]> = [
  // numbers and fractions
  ['0.5', '\\frac{1}{2}', true],
  ['1/2', '\\frac12', true],
  ['\\dfrac{3}{4}', '0.75', true],
  ['10.0', '10', true],
  ['10.00', '10', true],
  ['-3', '−3', true],
  ['1,000', '1000', true],
  ['1\\,000', '1000', true],
  ['1.5e3', '1500', true],
  ['1.5 \\times 10^{3}', '1500', true],
  ['0.333', '\\frac{1}{3}', false],
  ['0.33333', '\\frac{1}{3}', false],
  ['0.333333', '\\frac{1}{3}', true],
  ['3.14', '\\pi', false],
  ['3.14159265', '\\pi', true],
  ['2', '3', false],
  ['12', '21', false],
  ['-2', '2', false],
  // radicals, pi, symbolic constants
  ['2\\sqrt{2}', '\\sqrt{8}', true],
  ['\\frac{\\sqrt{3}}{2}', '\\frac{1}{2}\\sqrt{3}', true],
  ['\\sqrt[3]{8}', '2', true],
  ['\\frac{\\pi}{2}', '\\frac12\\pi', true],
  ['2\\pi', '\\pi', false],
  ['\\infty', 'inf', true],
  ['-\\infty', '\\infty', false],
  // percent, units, currency, degrees
  ['50\\%', '0.5', true],
  ['50\\%', '50', true],
  ['0.5', '50\\%', true],
  ['5%', '0.5', false],
  ['\\$5', '5', true],
  ['5 dollars', '5', true],
  ['5 \\text{ cm}', '5', true],
  ['5\\text{ cm}^2', '5', true],
  ['30^\\circ', '30', true],
  ['30^{\\circ}', '30°', true],
  ['45', '30^\\circ', false],
  // multiple choice
  ['(B)', 'B', true],
  ['\\text{(B)}', 'B', true],
  ['B', '(B)', true],
  ['C', '(B)', false],
  // assignments and equations
  ['x = 3', '3', true],
  ['3', 'x=3', true],
  ['x = 4', '3', false],
  ['y = 2x + 1', 'y = 1 + 2x', true],
  ['2x + 1', 'y = 2x + 1', true],
  ['x + y = 1', '2x + 2y = 2', true],
  ['x + y = 1', 'x - y = 1', false],
  ['x^2 + y^2 = 4', 'y^2 = 4 - x^2', true],
  // tuples, sets, intervals
  ['(1, 2)', '(1, 2)', true],
  ['(2, 1)', '(1, 2)', false],
  ['\\{2, 1\\}', '\\{1, 2\\}', true],
  ['2, 1', '\\{1, 2\\}', true],
  ['1, 2', '(1, 2)', true],
  ['\\{1, 2\\}', '(1, 2)', false],
  ['\\{1, 2\\}', '\\{1, 2, 3\\}', false],
  ['[1, 2)', '[1, 2)', true],
  ['[1, 2]', '[1, 2)', false],
  ['(1, 2]', '[1, 2]', false],
  ['(1, 2)', '[1, 2]', false],
  ['(0, \\frac{1}{2}]', '(0, 0.5]', true],
  ['(-\\infty, 0) \\cup (1, \\infty)', '(1, \\infty) \\cup (-\\infty, 0)', true],
  ['x > 3', '(3, \\infty)', true],
  ['x \\ge 3', '[3, \\infty)', true],
  ['x \\ge 3', '(3, \\infty)', false],
  ['1 < x \\le 2', '(1, 2]', true],
  ['x = 1, x = 2', '1, 2', true],
  ['1 \\pm \\sqrt{2}', '1 + \\sqrt{2}, 1 - \\sqrt{2}', true],
  // matrices
  [
    '\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}',
    '\\begin{bmatrix} 1 & 2 \\\\ 3 & 4 \\end{bmatrix}',
    true,
  ],
  [
    '\\begin{pmatrix} 1 & 2 \\\\ 3 & 4 \\end{pmatrix}',
    '\\begin{pmatrix} 1 & 2 \\\\ 4 & 3 \\end{pmatrix}',
    false,
  ],
  ['\\begin{pmatrix} 0.5 \\\\ 2 \\end{pmatrix}', '\\begin{pmatrix} \\frac12 \\\\ 2 \\end{pmatrix}', true],
  // expressions with variables
  ['x^2 + 2x + 1', '(x+1)^2', true],
  ['x^2 + 1', '(x+1)^2', false],
  ['\\frac{x}{2}', '0.5x', true],
  ['2xy', '2yx', true],
  ['\\sin^2 x + \\cos^2 x', '1', true],
  ['\\ln(e^{2})', '2', true],
  ['\\log_2 8', '3', true],
  ['|x|', 'x', false],
  ['\\binom{5}{2}', '10', true],
  ['5!', '120', true],
  ['3 + 4i', '4i + 3', true],
  // mixed numbers, named sets, connectives, function assignments
  ['3\\frac{1}{2}', '\\frac{7}{2}', true],
  ['3\\frac{1}{2}', '\\frac{3}{2}', false],
  ['2^{10}', '1024', true],
  ['10^{-3}', '0.001', true],
  ['\\frac{-1}{2}', '-\\frac{1}{2}', true],
  ['6\\sqrt{3}', '\\sqrt{108}', true],
  ['x \\in [1, 2]', '[1, 2]', true],
  ['\\mathbb{R}', '(-\\infty, \\infty)', true],
  ['\\emptyset', '\\{\\}', true],
  ['1 \\text{ and } 2', '\\{1, 2\\}', true],
  ['x = 1 \\text{ or } x = 2', '1, 2', true],
  ['f(x) = 2x + 3', '2x + 3', true],
  ['a = 2, b = 3', '(2, 3)', true],
  ['\\left[ 2, 5 \\right)', '[2, 5)', true],
  ['\\$1,000.50', '1000.5', true],
  // more forms careful graders accept or reject
  ['\\frac{2}{4}', '\\frac{1}{2}', true],
  ['\\sqrt{2}/2', '\\frac{\\sqrt{2}}{2}', true],
  ['(x-1)(x+1)', 'x^2-1', true],
  ['2.5', '5/2', true],
  ['1e-3', '0.001', true],
  ['\\text{A}', 'A', true],
  ['10\\%', '0.1', true],
  ['-1/2', '-0.5', true],
  ['\\{-1, 1\\}', '\\pm 1', true],
  ['x = \\pm 1', '1, -1', true],
  ['3,4', '(3,4)', true],
  ['\\dfrac{\\sqrt{3}}{3}', '\\frac{1}{\\sqrt{3}}', true],
  ['2\\times 3', '6', true],
  ['\\frac{9}{4}\\pi', '2.25\\pi', true],
  ['a^2b', 'ba^2', true],
  ['\\sqrt{x}', 'x^{1/2}', true],
  ['e^{i\\pi}', '-1', true],
  ['1,2,3', '\\{1,2,3\\}', true],
  ['x \\in (0, 1)', '(0,1)', true],
  ['\\frac{1}{0}', '1', false],
  // text answers
  ['\\text{no solution}', 'No Solution', true],
  ['\\text{even}', '\\text{odd}', false],
];

describe('mathEquivalent', () => {
  it.each(EQUIVALENCE)('%s vs %s -> %s', (answer, reference, equal) => {
    const got = mathEquivalent(answer, reference);
    expect(got.equal, JSON.stringify(got)).toBe(equal);
    expect(got.timedOut).toBe(false);
  });

  it('says how it decided', () => {
    expect(mathEquivalent('\\frac{1}{2}', '\\frac{1}{2}').method).toBe('string');
    expect(mathEquivalent('0.5', '\\frac{1}{2}').method).toBe('numeric');
    expect(mathEquivalent('(1, 0.5)', '(1, \\frac12)').method).toBe('structural');
    expect(mathEquivalent('x^2 + 2x + 1', '(x+1)^2').method).toMatch(/symbolic|numeric_sampling/);
    expect(mathEquivalent('(B)', 'B').method).toBe('choice');
  });

  it('respects the tolerance option', () => {
    expect(mathEquivalent('3.14', '\\pi', { relativeTolerance: 1e-2 }).equal).toBe(true);
    expect(mathEquivalent('100.5', '100', { relativeTolerance: 1e-4 }).equal).toBe(false);
  });

  it('turns percent awareness off on request', () => {
    expect(mathEquivalent('50\\%', '0.5', { percentAware: false }).equal).toBe(false);
  });

  it('counts a spent budget as not equal and says so', () => {
    const got = mathEquivalent('x^2 + 2x + 1', '(x+1)^2', { timeoutMs: 0 });
    expect(got).toMatchObject({ equal: false, timedOut: true });
  });

  it('keeps the evaluator out of reach of answer text', () => {
    for (const hostile of [
      'import({x: 1}, {override: true})',
      'evaluate("1+1")',
      'f(x) = x; f(2)',
      'createUnit("foo")',
      '[1,2,3][1]',
      '\\binom{100000000}{50000000}',
    ]) {
      const got = mathEquivalent(hostile, '2');
      expect(got.equal).toBe(false);
    }
  });

  it('compares over-long answers as text only, with a warning', () => {
    const long = `${'1+'.repeat(600)}1`;
    const got = mathEquivalent(long, '601');
    expect(got.equal).toBe(false);
    expect(got.warnings[0]).toMatch(/longer than/);
  });
});

describe('verifyMath', () => {
  it('verifies a MATH-style response against a boxed solution', () => {
    const got = verifyMath(
      'We simplify... so the answer is $\\boxed{\\dfrac{1}{2}}$.',
      'The probability is $\\boxed{\\frac12}$.',
    );
    expect(got).toMatchObject({
      correct: true,
      extracted: '\\dfrac{1}{2}',
      rule: 'boxed',
      matchedReference: '\\frac12',
    });
    expect(got.reason).toMatch(/equals/);
  });

  it('verifies a GSM8K response against a #### reference', () => {
    expect(verifyMath('3 + 4 = 7\n#### 7', 'Natalia sold 3+4 = <<3+4=7>>7 clips.\n#### 7').correct).toBe(
      true,
    );
    expect(verifyMath('The answer is 1,200.', '#### 1200').correct).toBe(true);
  });

  it('accepts any of several references and names the one that matched', () => {
    const got = verifyMath('\\boxed{0.5}', ['1/3', '1/2']);
    expect(got).toMatchObject({ correct: true, matchedReference: '1/2' });
  });

  it('explains a wrong answer', () => {
    const got = verifyMath('\\boxed{3}', '4');
    expect(got.correct).toBe(false);
    expect(got.reason).toBe('"3" (boxed) is not equivalent to "4"');
  });

  it('explains a missing answer', () => {
    const got = verifyMath('<think>3? 4?', '4');
    expect(got).toMatchObject({ correct: false, extracted: null, rule: 'none' });
    expect(got.reason).toMatch(/never closed/);
  });

  it('ignores numbers in the reasoning when a think block is closed', () => {
    expect(verifyMath('<think>maybe 4</think>It is \\boxed{5}', '4').correct).toBe(false);
    expect(verifyMath('<think>maybe 4</think>It is \\boxed{5}', '5').correct).toBe(true);
  });

  it('reads a number followed by words after an anchor', () => {
    expect(verifyMath('so the result is -0.75 overall', '-3/4').correct).toBe(true);
  });

  it('copes with long and unbalanced responses', () => {
    expect(verifyMath(`${'blah 12 '.repeat(20000)} \\boxed{3}`, '3').correct).toBe(true);
    expect(verifyMath(`${'{'.repeat(5000)} \\boxed{${'{'.repeat(3000)}`, '3').correct).toBe(false);
  });

  it('takes the last of several boxed answers when asked to', () => {
    const last = { multipleAnswers: 'last' } as const;
    expect(verifyMath('\\boxed{1} no wait \\boxed{2}', '2', last).correct).toBe(true);
    expect(verifyMath('\\boxed{1} no wait \\boxed{2}', '1', last).correct).toBe(false);
  });
});
