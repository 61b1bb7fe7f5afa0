import type { MathNode } from 'mathjs';
import { latexToExpression, NotAnExpression } from './latex-to-expression.js';
import { mathjsSubset } from './mathjs-subset.js';

/** The only calls an answer may contain; everything else in the mathjs namespace stays out of reach. */
const ALLOWED_FUNCTIONS = new Set([
  'sqrt',
  'nthRoot',
  'abs',
  'combinations',
  'sin',
  'cos',
  'tan',
  'sec',
  'csc',
  'cot',
  'asin',
  'acos',
  'atan',
  'sinh',
  'cosh',
  'tanh',
  'log',
  'log10',
  'exp',
  'factorial',
]);
const CONSTANTS = new Set(['pi', 'e', 'i', 'Infinity']);
const ALLOWED_OPERATORS = new Set([
  'add',
  'subtract',
  'multiply',
  'divide',
  'pow',
  'unaryMinus',
  'unaryPlus',
  'factorial',
]);

/** A parsed arithmetic expression and its free variables. */
export interface Expression {
  node: MathNode;
  variables: string[];
}

/**
 * LaTeX read as an arithmetic expression, or null when it is not one. The parse tree is checked
 * node by node: only numbers, variables, the four operations, powers, factorials and a fixed list
 * of functions pass, so nothing in an answer can reach the rest of the evaluator.
 */
export function parseExpression(latex: string): Expression | null {
  let text: string;
  try {
    text = latexToExpression(latex);
  } catch (error) {
    if (error instanceof NotAnExpression) return null;
    throw error;
  }
  if (text.trim() === '') return null;
  let node: MathNode;
  try {
    node = mathjsSubset().parse(text);
  } catch {
    return null;
  }
  const variables = new Set<string>();
  let safe = true;
  node.traverse((n, _path, parent) => {
    switch (n.type) {
      case 'ConstantNode':
      case 'ParenthesisNode':
        return;
      case 'OperatorNode':
        if (!ALLOWED_OPERATORS.has((n as unknown as { fn: string }).fn)) safe = false;
        return;
      case 'FunctionNode': {
        const name = (n as unknown as { fn: { name?: string } }).fn.name;
        if (name === undefined || !ALLOWED_FUNCTIONS.has(name)) safe = false;
        // combinations(n, k) loops k times: only small literal arguments keep it inside the budget.
        if (name === 'combinations' && !(n as unknown as { args: MathNode[] }).args.every(isSmallLiteral))
          safe = false;
        return;
      }
      case 'SymbolNode': {
        const name = (n as unknown as { name: string }).name;
        const isCallee = parent?.type === 'FunctionNode' && (parent as unknown as { fn: MathNode }).fn === n;
        if (!isCallee && !CONSTANTS.has(name)) variables.add(name);
        return;
      }
      default:
        safe = false;
    }
  });
  return safe ? { node, variables: [...variables].sort() } : null;
}

function isSmallLiteral(node: MathNode): boolean {
  let inner = node;
  while (inner.type === 'ParenthesisNode') inner = (inner as unknown as { content: MathNode }).content;
  const value = inner.type === 'ConstantNode' ? (inner as unknown as { value: unknown }).value : null;
  return typeof value === 'number' && Math.abs(value) <= 100_000;
}

/** A real or complex value; null when the expression does not evaluate to a number. */
export interface Scalar {
  re: number;
  im: number;
}

export function evaluateExpression(
  expression: Expression,
  scope: Record<string, number> = {},
): Scalar | null {
  let value: unknown;
  try {
    value = expression.node.evaluate({ ...scope });
  } catch {
    return null;
  }
  if (typeof value === 'number') return { re: value, im: 0 };
  if (typeof value === 'boolean') return null;
  if (value !== null && typeof value === 'object' && 're' in value && 'im' in value) {
    const { re, im } = value as { re: unknown; im: unknown };
    if (typeof re === 'number' && typeof im === 'number') return { re, im };
  }
  return null;
}

/** `a - b` simplified symbolically, or null when mathjs cannot simplify it. */
export function simplifiedDifference(a: Expression, b: Expression): string | null {
  try {
    const math = mathjsSubset();
    const difference = new math.OperatorNode('-', 'subtract', [
      new math.ParenthesisNode(a.node),
      new math.ParenthesisNode(b.node),
    ]);
    return math.simplify(difference).toString();
  } catch {
    return null;
  }
}

/** Bits an exact integer may reach before we stop: `9^{9^{9}}` must not be computed. */
const MAX_EXACT_BITS = 65_536;

/**
 * The exact value of an expression built from safe integers with +, −, × and non-negative integer
 * powers (`2^{64}+1`), or null for anything else: doubles cannot tell 2^64 + 1 from 2^64.
 */
export function exactInteger(expression: Expression): bigint | null {
  return expression.variables.length === 0 ? exactNode(expression.node) : null;
}

function exactNode(node: MathNode): bigint | null {
  const n = node as unknown as {
    type: string;
    value?: unknown;
    content?: MathNode;
    fn?: string;
    args?: MathNode[];
  };
  if (n.type === 'ConstantNode')
    return typeof n.value === 'number' && Number.isSafeInteger(n.value) ? BigInt(n.value) : null;
  if (n.type === 'ParenthesisNode' && n.content) return exactNode(n.content);
  if (n.type !== 'OperatorNode' || !n.args) return null;
  const args = n.args.map(exactNode);
  if (args.some((a) => a === null)) return null;
  const [x, y] = args as [bigint, bigint];
  switch (n.fn) {
    case 'unaryMinus':
      return -x;
    case 'unaryPlus':
      return x;
    case 'add':
      return x + y;
    case 'subtract':
      return x - y;
    case 'multiply':
      return x * y;
    case 'pow': {
      if (y < 0n) return null;
      const bits = (x < 0n ? -x : x).toString(2).length;
      if (BigInt(bits) * y > BigInt(MAX_EXACT_BITS)) return null;
      return x ** y;
    }
    default:
      return null;
  }
}
