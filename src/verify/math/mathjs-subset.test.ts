import { all, create } from 'mathjs';
import { describe, expect, test } from 'vitest';
import { mathjsSubset } from './mathjs-subset.js';

const full = create(all as NonNullable<typeof all>, { number: 'number' });

/** Every function, operator and constant the verifier lets through, plus the results it reads. */
const EXPRESSIONS = [
  'sqrt(-4)',
  'sqrt(2) * sqrt(8)',
  'nthRoot(27, 3) + abs(-2.5)',
  'combinations(10, 3) + 5!',
  'sin(pi / 6) + cos(0) + tan(pi / 4) + sec(0) + csc(pi / 2) + cot(pi / 4)',
  'asin(1) + acos(0) + atan(1) + sinh(1) + cosh(1) + tanh(1)',
  'log(e^2) + log10(1000) + exp(1) + log(8, 2)',
  '-x + +y - 3 * x / y ^ 2',
  'e^(i * pi) + i^2',
  '(x^2 - 2)^(5/3)',
  '1 / 0 - Infinity',
  'log(-1)',
];
const SCOPE = { x: 1.7, y: -0.3 };

/** A result or the error message, so that both instances are compared on failures too. */
function outcome(run: () => unknown): unknown {
  try {
    const value = run();
    return typeof value === 'object' && value !== null ? String(value) : value;
  } catch (error) {
    return `error: ${(error as Error).message}`;
  }
}

describe('mathjsSubset', () => {
  test.each(EXPRESSIONS)('should evaluate %s as create(all) does', (expression) => {
    expect(
      outcome(() =>
        mathjsSubset()
          .parse(expression)
          .evaluate({ ...SCOPE }),
      ),
    ).toEqual(outcome(() => full.parse(expression).evaluate({ ...SCOPE })));
  });

  test.each(EXPRESSIONS)('should simplify %s as create(all) does', (expression) => {
    expect(outcome(() => mathjsSubset().simplify(expression))).toEqual(
      outcome(() => full.simplify(expression)),
    );
  });

  test('should give a complex result for the square root of a negative number', () => {
    expect(mathjsSubset().parse('sqrt(x)').evaluate({ x: -9 })).toMatchObject({ re: 0, im: 3 });
  });

  test('should build difference nodes and simplify them to zero', () => {
    const math = mathjsSubset();
    const a = math.parse('2 * (x + 1)');
    const b = math.parse('x + x + 2');
    const difference = new math.OperatorNode('-', 'subtract', [
      new math.ParenthesisNode(a),
      new math.ParenthesisNode(b),
    ]);
    expect(math.simplify(difference).toString()).toBe('0');
    // Built once: every call gives the same instance.
    expect(mathjsSubset()).toBe(math);
  });

  test('should leave functions outside the subset undefined', () => {
    expect(() => mathjsSubset().parse('gcd(4, 6)').evaluate()).toThrow();
  });
});
