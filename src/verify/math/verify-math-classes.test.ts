import { describe, expect, it } from 'vitest';
import { type MathOptions, verifyMath } from './index.js';

/** [response, reference, correct?] per class of issue 10: each false accept listed there is a `false` row. */
type Row = [string, string, boolean];

const check = (rows: Row[], options: MathOptions = {}) =>
  it.each(rows)('%s | %s -> %s', (response, reference, correct) => {
    const got = verifyMath(response, reference, options);
    expect(got.correct, got.reason).toBe(correct);
  });

describe('class 0: numbers that differ are different', () => {
  check([
    ['#### 86401', '86400', false],
    ['#### 86400', '86400', true],
    ['The answer is 100001.', '100000', false],
    ['\\boxed{123456788}', '123456789', false],
    ['\\boxed{123456789}', '123456789', true],
    ['\\boxed{33.33}', '33.333', false],
    ['\\boxed{0.3333}', '\\frac{1}{3}', false],
    ['\\boxed{2.50001}', '2.5', false],
    ['\\boxed{2.50}', '2.5', true],
    ['\\boxed{0.30000000000000004}', '0.3', true],
    ['\\boxed{0.333333}', '\\frac{1}{3}', true],
    ['\\boxed{0.333334}', '\\frac{1}{3}', false],
    ['\\boxed{1.4142}', '\\sqrt{2}', false],
    ['\\boxed{1.41421}', '\\sqrt{2}', true],
    ['\\boxed{1.414214}', '\\sqrt{2}', true],
    ['\\boxed{1234567890.1}', '1234567890.2', false],
    ['\\boxed{100000000000000000001}', '100000000000000000000', false],
    ['\\boxed{2\\sqrt{2}}', '\\sqrt{8}', true],
    ['\\boxed{\\frac{1}{3}}', '0.333333', true],
  ]);

  it('applies a tolerance the user asks for to every number', () => {
    expect(verifyMath('\\boxed{33.33}', '33.333', { relativeTolerance: 1e-3 }).correct).toBe(true);
    expect(verifyMath('\\boxed{0.3333}', '1/3', { precision: 4 }).correct).toBe(true);
  });
});

describe('class 1: LaTeX answers without a box or anchor', () => {
  check([
    ['so $x = \\frac{3}{4}$', '\\frac{3}{4}', true],
    ['so $x = \\frac{3}{4}$', '4', false],
    ['The identity is $\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}$', '1', false],
    [
      'The identity is $\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}$',
      '\\begin{pmatrix}1&0\\\\0&1\\end{pmatrix}',
      true,
    ],
    ['Hence $x \\geq 5$', '5', false],
    ['Hence $x \\geq 5$', '[5, \\infty)', true],
    ['The ratio is $\\frac{1+\\sqrt{5}}{2}$', '2', false],
    ['The ratio is $\\frac{1+\\sqrt{5}}{2}$', '\\frac{1+\\sqrt{5}}{2}', true],
    ['The solution set is \\((0,9)\\)', '[0,9)', false],
    ['The solution set is \\([0,9)\\)', '[0,9)', true],
    ['We get \\[ y = 2x + 1 \\]', 'y=2x+1', true],
    ['$$f(y) = y$$', 'f(y) = y', true],
    ['3/4', '\\frac34', true],
    ['She earns $12 an hour, so in 3 hours she earns $36.', '36', true],
    ['She earns $12 an hour, so in 3 hours she earns $36.', '12', false],
  ]);
});

describe('class 2: anchors reduce to the math at their end', () => {
  check([
    ['Final Answer: The largest $n$ is 34.', '34', true],
    ['Final Answer: The final answer is $34$. I hope it is correct.', '34', true],
    ['The answer is: there are 12 ways.', '12', true],
    ['**Final answer:** $x = 2$ or $x = 3$', '2, 3', true],
    ['The answer is odd.', '\\text{odd}', true],
  ]);
});

describe('class 3: several boxed answers', () => {
  check([
    ['\\boxed{(2,2)} and \\boxed{(6,2)}', '(2,2),(6,2)', true],
    ['\\boxed{(6,2)} and \\boxed{(2,2)}', '(2,2),(6,2)', true],
    ['\\boxed{3} or maybe \\boxed{4}', '4', false],
    ['\\boxed{3} or maybe \\boxed{4}', '3', false],
    ['\\boxed{4}, so again \\boxed{4}', '4', true],
    ['\\boxed{\\frac12}, that is \\boxed{0.5}', '1/2', true],
    ['\\boxed{2} and \\boxed{3}', '\\{2, 3\\}', true],
  ]);

  it('names the hack in the reason', () => {
    expect(verifyMath('\\boxed{3} \\boxed{4}', '4').reason).toMatch(/2 distinct boxed answers/);
  });

  it('reads every box as one answer, or only the last, on request', () => {
    expect(verifyMath('\\boxed{2} \\boxed{3}', '2, 3', { multipleAnswers: 'all' }).correct).toBe(true);
    expect(verifyMath('\\boxed{3} \\boxed{4}', '4', { multipleAnswers: 'all' }).correct).toBe(false);
    expect(verifyMath('\\boxed{3} \\boxed{4}', '4', { multipleAnswers: 'last' }).correct).toBe(true);
  });
});

describe('class 4: MATH number formatting', () => {
  check([
    ['\\boxed{16,\\!386.20}', '16386.2', true],
    ['\\boxed{32,\\! 349}', '32349', true],
    ['\\boxed{10,\\!000}', '10000', true],
    ['\\boxed{10\\,000}', '10000', true],
    ['\\boxed{10 000}', '10000', true],
    ['\\boxed{1 234 567}', '1234567', true],
    ['\\boxed{10\u2009000}', '10000', true],
    ['\\boxed{2,5}', '2.5', true],
    ['\\boxed{2,5}', '\\{2, 5\\}', true],
    ['\\boxed{1,000}', '1', false],
  ]);
});

describe('class 5: labelled and compound answers', () => {
  check([
    ['\\boxed{(p,q)=(3,2)}', '(3,2)', true],
    ['\\boxed{(p,q)=(2,3)}', '(3,2)', false],
    ['\\boxed{AB=4, CD=5}', '4, 5', true],
    ['\\boxed{7:32}', '7:32', true],
    ['\\boxed{7 : 32}', '7:32', true],
    ['\\boxed{32:7}', '7:32', false],
    ['\\boxed{2 \\text{ or } 3}', '2, 3', true],
    ['\\boxed{2; 3}', '2, 3', true],
    ['\\boxed{m\\angle A = 30^\\circ}', '30', true],
  ]);
});

describe('class 6: semantics of structures', () => {
  check([
    ['\\boxed{(1,2),(3,4)}', '(3,4),(1,2)', true],
    ['\\boxed{(1,2),(1,2)}', '(1,2),(3,4)', false],
    ['\\boxed{(1,2),(3,4),(1,2)}', '(1,2),(3,4)', true],
    ['\\boxed{(1,2),(3,4)}', '(1,2),(3,4),(5,6)', false],
    ['\\boxed{\\{1,3\\} \\cup \\{2,4\\}}', '\\{1,2,3,4\\}', true],
    ['\\boxed{\\{1,3\\} \\cup \\{2,5\\}}', '\\{1,2,3,4\\}', false],
    ['\\boxed{\\{1,1,2\\}}', '\\{1,2\\}', true],
    ['\\boxed{[0,9)}', '[0,9)', true],
    ['\\boxed{(0,9]}', '[0,9)', false],
    ['\\boxed{\\begin{pmatrix}1\\\\2\\\\\\end{pmatrix}}', '\\begin{pmatrix}1\\\\2\\end{pmatrix}', true],
    ['\\boxed{x \\geq 5}', 'x \\ge 5', true],
    ['\\boxed{5 \\le x}', 'x \\geq 5', true],
    ['\\boxed{x > 5}', 'x \\geq 5', false],
    ['\\boxed{(x^2-2)^{5/3}}', '\\sqrt[3]{(x^2-2)^5}', true],
    ['\\boxed{(x^2-2)^{5/3}}', '\\sqrt[3]{(x^2-2)^4}', false],
  ]);

  it('compares relations as relations on request', () => {
    const relation = { relations: 'relation' } as const;
    expect(verifyMath('\\boxed{x \\geq 5}', '[5, \\infty)', relation).correct).toBe(false);
    expect(verifyMath('\\boxed{5 \\le x}', 'x \\ge 5', relation).correct).toBe(true);
    expect(verifyMath('\\boxed{x \\geq 5}', '[5, \\infty)').correct).toBe(true);
  });

  it('says "undecided" when the values cannot be compared, not "incorrect"', () => {
    const got = verifyMath('\\boxed{\\sqrt{x}}', '\\sqrt{-x}');
    expect(got.status).toBe('undecided');
    expect(got.correct).toBe(false);
    expect(got.reason).toMatch(/could not decide.*sample points/);
  });
});

describe('class 7: text answers', () => {
  check([
    ['\\boxed{odd}', '\\text{odd}', true],
    ['\\boxed{\\text{even}}', '\\text{odd}', false],
    ['The answer is $\\text{odd}$', 'odd', true],
    ['\\boxed{B}', 'B', true],
    ['\\boxed{b}', 'B', false],
    ['$$f(y) = y$$', 'f(y)=y', true],
    ['$$f(y) = 2y$$', 'f(y)=y', false],
  ]);
});

describe('more forms: unicode, repeating decimals, inverse trig, big integers, option text', () => {
  check([
    ['\\boxed{½}', '\\frac12', true],
    ['\\boxed{x²+1}', 'x^2+1', true],
    ['\\boxed{x³+1}', 'x^2+1', false],
    ['\\boxed{1/3}', '0.\\overline{3}', true],
    ['\\boxed{\\frac{37}{30}}', '1.2\\overline{3}', true],
    ['\\boxed{0.3}', '0.\\overline{3}', false],
    ['\\boxed{\\tan^{-1}(1)}', '\\frac{\\pi}{4}', true],
    ['\\boxed{\\sin^{2}(1) + \\cos^2(1)}', '1', true],
    ['\\boxed{2^{64}}', '18446744073709551616', true],
    ['\\boxed{2^{64}+1}', '18446744073709551616', false],
    ['\\boxed{9^{9^{9}}}', '1', false],
    ['\\boxed{(A) 5}', 'A', true],
    ['\\boxed{(B) 5}', 'A', false],
    ['\\boxed{\\textbf{(C)}}', 'C', true],
    ['\\boxed{x \\in (-\\infty, -2) \\cup (3, \\infty)}', '(-\\infty,-2)\\cup(3,\\infty)', true],
    ['\\boxed{\\$ 1{,}234.50}', '1234.5', true],
    ['\\boxed{2x+y=3}', 'y=-2x+3', true],
  ]);
});

describe("forms from the graders' own test suites", () => {
  describe('equation chains and approximations state their result last', () => {
    check([
      ['$x = 5+5+1 = 7 =11$', 'x = 11', true],
      ['$x = 5+5+1 = 7 =12$', 'x = 11', false],
      ['$x = 5+5+1 = 1/3 \\approx 11$', 'x = 1/3', true],
      ['$x\\approx11$', '11', true],
      ['$x=1/3\\approx1.3$', '1/3', true],
      ['$x=1/3\\approx0.33$', '0.33', false],
      ['$0$', '1 = \\zzz = x = 0', true],
      ['$z = 3+3 = 2$', 'z = 1 + 1 = 2', true],
      ['$2+3 = 5$', '5', true],
    ]);
  });
  describe('a reference labelled by a name states its value on the right', () => {
    check([
      ['$$1$$', '|AB|=1', true],
      ['$$1$$', 'A:B=1', true],
      ['$\\boxed{7:32}$', 'S_{MBCN}:S=7:32', true],
      ['$11:21$', 'V_{1}:V_{2}=11:21', true],
      ['$\\frac{1}{\\sqrt{6}}$', '\\frac{NO}{BO}=\\frac{1}{\\sqrt{6}}', true],
      // A condition is not a name: `0` does not answer `a + 3z = 0`.
      ['$0$', 'a +3z = 0', false],
      ['$1$', '2x + z = 1', false],
      ['$0$', 'a^2 + b = 0', false],
      ['$\\boxed{4, 5}$', 'AB=4,CD=5', true],
      ['$(5,2),(7,2)$', 'p=5,q=2;p=7,q=2', true],
      ['$(5,2),(7,3)$', 'p=5,q=2;p=7,q=2', false],
      ['$$\\boxed{a_{37} = 19, \\quad a_3 = 2}$$', 'a_3 = 2, a_{37} = 19', true],
      ['$$\\boxed{k = 45} \\quad \\text{and} \\quad \\boxed{n = 2}$$', 'k = 45, n = 2', true],
    ]);
  });
  describe('relations', () => {
    check([
      ['We find that $x \\neq 3$.', 'x != 3', true],
      ['The solution is $x != 5$', 'x \\neq 5', true],
      ['The solution is $x != 5$', 'x \\neq 4', false],
      ['$-x > -1$', 'x < 1', true],
      ['$-x >= -1$', 'x <= 1', true],
      ['$-x > -1$', 'x > 1', false],
      ['$(0,1)$', '0<f(x)<1', true],
      ['$x \\in [-2,7]$', '-2 \\\\le x \\\\le 7', true],
    ]);
  });
  describe('matrices in spaced or bracketed math', () => {
    check([
      [
        'The identity matrix is $ \\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix} $.',
        '\\begin{pmatrix}1 & 0 \\\\ 0 & 1\\end{pmatrix}',
        true,
      ],
      [
        'Special matrix: $ \\left[\\begin{array}{cc}1 & 2 \\\\3 & 4\\end{array}\\right] $',
        '\\begin{pmatrix}1 & 2 \\\\3 & 4\\end{pmatrix}',
        true,
      ],
      [
        'Special matrix: $ \\left[\\begin{array}{cc}1 & 2 \\\\3 & 5\\end{array}\\right] $',
        '\\begin{pmatrix}1 & 2 \\\\3 & 4\\end{pmatrix}',
        false,
      ],
      [
        '\\boxed{\\begin{pmatrix}-\\frac{7}{4}&-2\\\\4&\\frac{1}{4}\\end{pmatrix}}',
        '(\\begin{pmatrix}-\\frac{7}{4}&-2\\\\4&\\frac{1}{4}\\\\\\end{pmatrix})',
        true,
      ],
    ]);
  });
  describe('escapes, braces and connectives', () => {
    // `{…}` in inline math, written without a template's `${`.
    const braced = (inner: string, dollars = '$') => `${dollars}{${inner}}${dollars}`;
    check([
      ['\\boxed{\\\\left( 3, \\\\frac{\\\\pi}{2} \\\\right)}', '(3, \\frac{\\pi}{2})', true],
      [braced('1,3'), '(1,3)', true],
      [
        braced('2, 3, 5, 7, 13', '$$'),
        '$$\\boxed{2}, \\boxed{3}, \\boxed{5}, \\boxed{7}, \\boxed{13}$$',
        true,
      ],
      ['\\boxed{1} and \\boxed{2} and \\boxed{3}', '{1,2,3}', true],
      [braced('-2021, 2021'), '\\pm 2021', true],
      [braced('-2021, 2022'), '\\pm 2021', false],
      ['$19, 46, \\text{ and } 82$', '19, 46, and 82', true],
      ['$\\boxed{(7,11),\\ (11,7)}$', '(11,7)or(7,11)', true],
      ['$\\boxed{(7,11),\\ (11,8)}$', '(11,7)or(7,11)', false],
      ['\\boxed{x_{1}=1,\\quadx_{2}=2}', '1, 2', true],
    ]);
  });
  describe('numbers', () => {
    check([
      ['1.22', '1,22', true],
      ['1,22', '1.22', true],
      ['0.111', '0,111', true],
      ['0.112', '0,111', false],
      ['1,000', '1000', true],
      ['AZYUK2A', '2', false],
      ['The answer is five', '5', true],
      ['\\boxed{3+2j}', '3+2i', true],
      ['\\boxed{3+2j}', '3-2i', false],
    ]);
  });
  describe('where the answer is stated', () => {
    check([
      [
        'So $0.04 \\cdot 10,000 \\cdot \\frac{1}{2} = \\boxed{200}$ and then $\\boxed{255}$. Final Answer: The final answer is $10,455$.',
        '10455',
        true,
      ],
      [
        'We get $d = \\frac{90}{n}$. The divisors of 90 are 1, 2, 3, 5, 6, 9, 10, 15, 18, 30, 45, and 90. Therefore, there are 12 sequences.',
        '12',
        true,
      ],
      ['The answer is $\\frac{1}{2}$, checked in 2 steps', '\\frac{1}{2}', true],
      [
        "Dividing, $$\\frac{\\Delta x'}{\\Delta x} \\geq \\frac{2}{1}.$$ Therefore the error increases by 100%.",
        '100\\%',
        true,
      ],
      // A worked solution without a box as the reference: its stated answer.
      [
        '\\boxed{14916}',
        'In order for $N$ to be divisible by 12, $N$ must be divisible by $4$ and $3$. So the answer is $14{,}916$.',
        true,
      ],
    ]);
  });
  describe('option letters, when the reference is one', () => {
    check([
      ['A. Because B is not valid', 'A', true],
      ['Because B is valid', 'B', true],
      ['Because B is valid', 'A', false],
      ['It is A or B or C', 'A', false],
      ['\\mathrm{(D)\\}1,008,016', 'D', true],
    ]);
  });
});

describe('issue 27: --explain names the rule that read each new form', () => {
  it.each([
    ['I get 2 + sqrt(5)', '5', 'last_number', '2 + sqrt(5)'],
    ['The answer is 2 + sqrt(5).', '5', 'anchor', '2 + sqrt(5)'],
    ['所以每天赚 18 美元。答案是 18。', '18', 'anchor', '18'],
    ['따라서 정답은 18입니다.', '18', 'anchor', '18'],
    ['So I would go with C', 'C', 'choice', 'C'],
    ['It has to be A, not B or D.', 'A', 'choice', 'A'],
    ['\\mathrm{B}\\cdot 3', 'B', 'bare_expression', '\\mathrm{B}\\cdot 3'],
    ['thus the result is #### 18', '18', 'anchor', '18'],
  ])('%j (reference %j) is read by %s', (response, reference, rule, extracted) => {
    const got = verifyMath(response, reference, { explain: true });
    expect(got).toMatchObject({ rule, extracted });
    expect(got.explanation?.candidates[0]?.rule).toBeDefined();
    expect(got.explanation?.candidates.some((c) => c.rule === rule && c.text === extracted)).toBe(true);
  });
});

describe('issue 27: plain-text (ASCII / Python) math is an expression', () => {
  check([
    ['2 + sqrt(5)', '5', false],
    ['2 + sqrt(5)', '2+\\sqrt{5}', true],
    ['(4*sqrt(3))/9', '\\frac{4\\sqrt{3}}{9}', true],
    ['(4*sqrt(3))/9', '9', false],
    ['3**(1/3)', '\\sqrt[3]{3}', true],
    ['3**(1/3)', '3', false],
    ['sqrt(3)+sqrt(3)', '2\\sqrt{3}', true],
    ['sqrt(3)+sqrt(3)', '3', false],
    ['2*pi', '2\\pi', true],
    ['x**2 + 2*x + 1', '(x+1)^2', true],
    ['The answer is 2 + sqrt(5).', '2+\\sqrt{5}', true],
    ['The answer is 2 + sqrt(5).', '5', false],
    ['I get 2 + sqrt(5)', '5', false],
    ['I get 2 + sqrt(5)', '2+\\sqrt5', true],
    ['So the side is 4*sqrt(3)/9 units.', '\\frac{4\\sqrt3}{9}', true],
    ['So the side is 4*sqrt(3)/9 units.', '9', false],
    ['Final answer: 3**(1/3)', '3', false],
    // Plain numbers in prose are still numbers.
    ['She has 3 apples and buys 4 more, so 7 apples.', '7', true],
  ]);
});

describe('issue 27: answer markers in other languages', () => {
  check([
    ['所以每天赚 9 * 2 = 18 美元。答案是 18。', '18', true],
    ['所以每天赚 9 * 2 = 18 美元。答案是 18。', '2', false],
    ['最终答案：$\\frac{1}{2}$', '\\frac12', true],
    ['答：18', '18', true],
    ['答：18', '8', false],
    ['9 * 2 = 18 なので、答えは18です。', '18', true],
    ['따라서 정답은 18입니다.', '18', true],
    ['따라서 정답은 18입니다.', '8', false],
    ['Donc 9 × 2 = 18. La réponse finale est 18.', '18', true],
    ['Réponse : $\\frac{3}{4}$', '\\frac34', true],
    ['Also 9 * 2 = 18. Die Antwort lautet 18.', '18', true],
    ['Así que 9 * 2 = 18. La respuesta es 18.', '18', true],
    ['Итак, 9 * 2 = 18. Ответ: 18', '18', true],
    ['Итак, 9 * 2 = 18. Ответ — 18.', '18', true],
    ['Portanto 9 * 2 = 18. A resposta é 18.', '18', true],
    ['Ответ: 18', '18', true],
    // Letterlike math symbols belong to no script: still math.
    ['ℵ_0', 'ℵ_0', true],
    // A short non-English response is prose, never one expression.
    ['十八', '18', false],
    ['我不知道', '18', false],
    ['Ответ: 1:8', '18', false],
  ]);
});

describe('issue 27: option letters in prose, and never out of an expression', () => {
  check([
    ['So I would go with C', 'C', true],
    ['So I would go with C', 'A', false],
    ['It has to be A, not B or D.', 'A', true],
    ['It has to be A, not B or D.', 'B', false],
    ['After checking each option, the correct choice is (B) rather than D.', 'B', true],
    ['I think the answer is D', 'D', true],
    ['A quick check rules out the others, so B.', 'B', true],
    ['\\mathrm{B}\\cdot 3', 'B', false],
    ['$\\mathrm{E}*2$', 'E', false],
    ['\\mathrm{E}*2', 'E', false],
    ['It could be A or B', 'A', false],
    ['It would be A if x were positive, but since x < 0 it is C.', 'A', false],
    ['It has to be B: A is negative and C is too large.', 'B', true],
    ['It has to be B: A is negative and C is too large.', 'A', false],
    ['I choose B because A is wrong.', 'B', true],
    ['I choose B because A is wrong.', 'A', false],
    ['The answer is B because A is too small.', 'B', true],
    ['The answer is B because A is too small.', 'A', false],
    ['The answer is (C), since the others fail.', 'C', true],
    // Naming an option is not picking it.
    ['Option A gives 12, so B.', 'B', true],
    ['Option A gives 12, so B.', 'A', false],
    ['选项 A 和 C 都不对，故选B', 'B', true],
    ['选项 A 和 C 都不对，故选B', 'A', false],
    ['The correct answer is option B', 'B', true],
    ['Neither A nor C works. The answer to the question is B', 'B', true],
    ['Neither A nor C works. The answer to the question is B', 'C', false],
  ]);
});

describe('issue 27: \\pm, degrees in trig, chains, primes, stray backslashes, #### after a marker', () => {
  check([
    ['\\boxed{\\frac{1\\pm\\sqrt5}{2}}', '\\frac{1+\\sqrt5}{2}, \\frac{1-\\sqrt5}{2}', true],
    ['\\boxed{\\frac{1\\pm\\sqrt5}{2}}', '\\frac{1+\\sqrt5}{2}', false],
    ['\\boxed{\\{1\\pm 2\\}}', '\\{3,-1\\}', true],
    ['\\boxed{\\{1\\pm 2\\}}', '\\{3,1\\}', false],
    ['\\boxed{x = \\frac{-1 \\pm \\sqrt{5}}{2}}', '\\frac{-1+\\sqrt5}{2}, \\frac{-1-\\sqrt5}{2}', true],
    ['\\boxed{\\cos 40^\\circ}', '\\cos(40^\\circ)', true],
    ['\\boxed{\\cos 40^\\circ}', '\\sin 50^\\circ', true],
    ['\\boxed{\\cos 40^\\circ}', '\\cos\\frac{2\\pi}{9}', true],
    ['\\boxed{\\cos 40^\\circ}', '\\cos 40', false],
    ['\\boxed{\\cos 40^\\circ}', '40', false],
    ['\\boxed{\\sin^2 30^\\circ}', '\\frac14', true],
    ['\\boxed{\\tan(45^{\\circ})}', '1', true],
    ['= 90 - 25 = 65', '65', true],
    ['= 90 - 25 = 65', '90', false],
    ['so x = 90 - 25 = 65', '65', true],
    ['The angle is 180 - 90 - 25 = 65 degrees.', '65', true],
    ['It is 2*3 = 6.', '6', true],
    ['It is 6', '6', true],
    ["\\boxed{g'(x) = 2x}", '2x', true],
    ["\\boxed{g'}", "g'", true],
    ["\\boxed{g'}", 'g', false],
    ['\\boxed{185\\\\}', '185', true],
    ['185\\', '185', true],
    ['185\\', '18', false],
    ['thus the result is #### 18', '18', true],
    ['thus the result is #### 18', '1', false],
    ['The final answer is #### 18', '18', true],
  ]);
});

describe('variable names in equations', () => {
  it('ignores labels by default and compares them when strict', () => {
    expect(verifyMath('\\boxed{y = 3}', 'x = 3').correct).toBe(true);
    expect(verifyMath('\\boxed{y = 3}', 'x = 3', { variables: 'strict' }).correct).toBe(false);
    expect(verifyMath('\\boxed{x = 3}', 'x = 3', { variables: 'strict' }).correct).toBe(true);
    expect(verifyMath('\\boxed{3}', 'x = 3', { variables: 'strict' }).correct).toBe(true);
  });
});

describe('bad input', () => {
  const budget = { timeoutMs: 500 };
  it.each([
    ['unbalanced braces', '\\boxed{\\frac{1}{2}', '1/2'],
    ['an unterminated math span', 'so $x = \\frac{1}{2}', '1/2'],
    ['an empty box', 'The answer is \\boxed{}', '3'],
    ['deeply nested fractions', `\\boxed{${'\\frac{1}{'.repeat(400)}2${'}'.repeat(400)}}`, '2'],
    ['1 MB of LaTeX', `$${'x^{2}+'.repeat(170_000)}1$`, '1'],
    ['1 MB of dollar signs', '$1 '.repeat(350_000), '2'],
  ])('%s: a clear verdict within the budget, never a false accept', (_, response, reference) => {
    const started = performance.now();
    const got = verifyMath(response, reference, budget);
    expect(got.correct).toBe(false);
    expect(got.reason.length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('says an empty box is empty', () => {
    expect(verifyMath('The answer is \\boxed{}', '3')).toMatchObject({
      status: 'incorrect',
      extracted: null,
      reason: 'the \\boxed{} answer is empty',
    });
  });
});

describe('properties', () => {
  const answers = [
    '\\frac{1}{2}',
    '0.5',
    '(1,2)',
    '[1,2)',
    '\\{1,2\\}',
    'x^2+2x+1',
    '(x+1)^2',
    'x = 3',
    '3',
    '\\sqrt{8}',
    '2\\sqrt{2}',
    '50\\%',
    'B',
    '\\text{odd}',
    '1, 2',
  ];
  it('equivalence is symmetric', () => {
    for (const a of answers) {
      for (const b of answers) {
        const ab = verifyMath(`\\boxed{${a}}`, b).correct;
        const ba = verifyMath(`\\boxed{${b}}`, a).correct;
        expect(ab, `${a} vs ${b}`).toBe(ba);
      }
    }
  });

  it('a response never matches a reference it only contains as a digit of a larger expression', () => {
    const wrappers = [
      (d: string) => `$\\frac{${d}+\\sqrt{5}}{7}$`,
      (d: string) => `$x^{${d}} + 1$`,
      (d: string) => `The answer is $\\sqrt{${d}3}$.`,
      (d: string) => `so $f(x) = ${d}x - 1$`,
      (d: string) => `\\[ \\begin{pmatrix} ${d} & 0 \\\\ 0 & 1 \\end{pmatrix} \\]`,
      (d: string) => `$(${d}, 9)$`,
      (d: string) => `Hence $x \\le ${d}$`,
    ];
    for (const digit of ['2', '5', '7']) {
      for (const wrap of wrappers) {
        const got = verifyMath(wrap(digit), digit);
        expect(got.correct, `${wrap(digit)}: ${got.reason}`).toBe(false);
      }
    }
  });
});

describe('--explain', () => {
  it('lists the candidates, the normalized forms and the comparison that decided', () => {
    const got = verifyMath('I think $x = 4$. Final answer: \\boxed{\\dfrac{1}{2}}', ['0.4', '0.5'], {
      explain: true,
    });
    expect(got.correct).toBe(true);
    expect(got.explanation?.candidates).toEqual([
      { rule: 'boxed', text: '\\dfrac{1}{2}' },
      { rule: 'anchor', text: '\\boxed{\\dfrac{1}{2}}' },
      { rule: 'math_span', text: 'x = 4' },
    ]);
    expect(got.explanation?.comparisons).toEqual([
      expect.objectContaining({ reference: '0.4', equal: false }),
      expect.objectContaining({
        reference: '0.5',
        equal: true,
        method: 'numeric',
        normalized: expect.objectContaining({ answer: '\\frac{1}{2}', reference: '0.5' }),
      }),
    ]);
  });
});

describe('adversarial sizes', () => {
  it('matches long lists in polynomial time, element by element', () => {
    const ones = Array.from({ length: 40 }, () => '1');
    const started = performance.now();
    const got = verifyMath(`\\boxed{${ones.join(', ')}}`, [...ones.slice(1), '2'].join(', '), {
      timeoutMs: 60_000,
    });
    expect(got.status).toBe('incorrect');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it.each([
    ['A, '.repeat(100_000), 'A', true],
    [`${'A and '.repeat(50_000)}C`, 'A', false],
    ['not A '.repeat(50_000), 'A', false],
    ['would be A if '.repeat(30_000), 'B', false],
    [`${'A 和 '.repeat(50_000)}都不对`, 'A', false],
  ])(
    'reads option letters of a long line without rescanning it per letter (%#)',
    (response, reference, correct) => {
      expect(verifyMath(response, reference).correct).toBe(correct);
    },
  );

  it('reads a thousand boxes without comparing every pair', () => {
    const boxes = Array.from({ length: 1000 }, (_, i) => `\\boxed{${i % 3}}`).join(' ');
    const got = verifyMath(boxes, '1');
    expect(got).toMatchObject({ status: 'incorrect', extracted: '0, 1, 2' });
  });
});
