import { extractAnswer } from '../reference/extract-answer.js';

/**
 * The countdown task (TinyZero's RLVR task): reach `target` with arithmetic over the `numbers` on
 * offer. The answer is an expression, parsed here and never evaluated as code: integers, + − × ÷
 * and parentheses only, and a division must come out even.
 */
export interface CountdownOptions {
  /** Where the expression is read: the last `<answer>` block (TinyZero's format; default) or the last `#### ` line. */
  extract?: 'answer_tag' | 'hash_line';
  /** Every number must be used exactly once (TinyZero's rule; default), or each at most once. */
  useAll?: boolean;
}

export type CountdownVerdict =
  | { correct: true; expression: string; value: number }
  | {
      correct: false;
      reason: 'no_answer' | 'unreadable' | 'wrong_numbers' | 'wrong_value';
      expression?: string;
      value?: number;
    };

/** Whether the response's answer is an expression over `numbers` that evaluates to `target`. */
export function countdownCheck(
  response: string,
  numbers: readonly number[],
  target: number,
  options: CountdownOptions = {},
): CountdownVerdict {
  const { extract = 'answer_tag', useAll = true } = options;
  const expression =
    extract === 'answer_tag'
      ? extractAnswer(response, 'answer_tag')
      : ([...response.matchAll(/^####[ \t]*(.*)$/gm)].at(-1)?.[1]?.trim() ?? null);
  if (expression === null || expression === '') return { correct: false, reason: 'no_answer' };
  const value = evaluateCountdown(expression);
  if (value === undefined) return { correct: false, reason: 'unreadable', expression };
  const left = [...numbers];
  for (const used of expression.match(/\d+/g) ?? []) {
    const at = left.indexOf(Number(used));
    if (at < 0) return { correct: false, reason: 'wrong_numbers', expression, value };
    left.splice(at, 1);
  }
  if (useAll && left.length > 0) return { correct: false, reason: 'wrong_numbers', expression, value };
  return value === target
    ? { correct: true, expression, value }
    : { correct: false, reason: 'wrong_value', expression, value };
}

/** The value of an integer arithmetic expression, or undefined when it is not one (or divides unevenly). */
export function evaluateCountdown(expression: string): number | undefined {
  const tokens =
    expression
      .replace(/×/g, '*')
      .replace(/÷/g, '/')
      .match(/\d+|[-+*/()]|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  // expr := term (('+'|'-') term)*; term := factor (('*'|'/') factor)*; factor := int | '(' expr ')'
  const factor = (): number | undefined => {
    const token = tokens[at++];
    if (token === undefined) return undefined;
    if (/^\d+$/.test(token)) return Number(token);
    if (token !== '(') return undefined;
    const inner = expr();
    return tokens[at++] === ')' ? inner : undefined;
  };
  const term = (): number | undefined => {
    let value = factor();
    while (value !== undefined && (peek() === '*' || peek() === '/')) {
      const op = tokens[at++];
      const right = factor();
      if (right === undefined) return undefined;
      if (op === '/' && (right === 0 || value % right !== 0)) return undefined;
      value = op === '*' ? value * right : value / right;
    }
    return value;
  };
  const expr = (): number | undefined => {
    let value = term();
    while (value !== undefined && (peek() === '+' || peek() === '-')) {
      const op = tokens[at++];
      const right = term();
      if (right === undefined) return undefined;
      value = op === '+' ? value + right : value - right;
    }
    return value;
  };
  const value = expr();
  return value !== undefined && at === tokens.length && Number.isSafeInteger(value) ? value : undefined;
}
