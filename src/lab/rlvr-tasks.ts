import { createRng, type Rng } from '../core/rng.js';

/**
 * Seeded synthetic verifiable tasks for RL in the lab (issue 29 §2): short enough for the lab's
 * character-level model, each answer in a form rewardkit's checks read (`#### <answer>`).
 * - addition: `add 123+45` → `#### 168` (checked by the math verifier);
 * - sorting: `sort 3 1 2` → `#### 1 2 3` (exact match on the answer line);
 * - countdown: `reach 46 with 3 7 25` → `#### 25+3*7`, any expression over the given numbers,
 *   each at most once, that evaluates to the target (`countdownCheck`).
 */
export const RLVR_TASK_KINDS = ['addition', 'sorting', 'countdown'] as const;
export type RlvrTaskKind = (typeof RLVR_TASK_KINDS)[number];

export interface RlvrTask {
  id: string;
  kind: RlvrTaskKind;
  prompt: string;
  /** The expected answer (for countdown, one expression that reaches the target). */
  reference: string;
  /** Countdown only: the numbers on offer and the target. */
  numbers?: number[];
  target?: number;
}

export interface RlvrTaskOptions {
  /** Addition: digits of each operand (default 3). */
  digits?: number;
  /** Sorting: how many digits to sort (default 5). */
  length?: number;
  /** Countdown: how many numbers are on offer (default 3). */
  count?: number;
}

/** `n` tasks of `kind` from `seed`: the same arguments give the same tasks, ids `<kind>-<seed>-<i>`. */
export function rlvrTasks(
  kind: RlvrTaskKind,
  n: number,
  seed: number,
  options: RlvrTaskOptions = {},
): RlvrTask[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, (_, i) => ({ id: `${kind}-${seed}-${i}`, ...MAKERS[kind](rng, options) }));
}

/** The answer line a policy writes: `#### <answer>`. */
export const answerLine = (answer: string) => `#### ${answer}`;

const MAKERS: Record<RlvrTaskKind, (rng: Rng, o: RlvrTaskOptions) => Omit<RlvrTask, 'id'>> = {
  addition: (rng, { digits = 3 }) => {
    const operand = () => rng.int(10 ** (digits - 1), 10 ** digits - 1);
    const a = operand();
    const b = operand();
    return { kind: 'addition', prompt: `add ${a}+${b}`, reference: String(a + b) };
  },
  sorting: (rng, { length = 5 }) => {
    const items = Array.from({ length }, () => rng.int(0, 9));
    return {
      kind: 'sorting',
      prompt: `sort ${items.join(' ')}`,
      reference: [...items].sort((x, y) => x - y).join(' '),
    };
  },
  countdown: (rng, { count = 3 }) => {
    // Built from a random expression over the numbers, so every task has a solution.
    const numbers = Array.from({ length: count }, () => rng.int(1, 25));
    for (;;) {
      let expression = String(numbers[0]);
      for (const x of numbers.slice(1)) {
        const op = ['+', '-', '*'][rng.int(0, 2)] as string;
        expression =
          op === '*' && expression.includes('+') ? `(${expression})*${x}` : `${expression}${op}${x}`;
      }
      const target = evaluateCountdown(expression);
      if (target !== undefined && Number.isInteger(target) && target > 0) {
        return {
          kind: 'countdown',
          prompt: `reach ${target} with ${rng.shuffle(numbers).join(' ')}`,
          reference: expression,
          numbers,
          target,
        };
      }
    }
  },
};

export type CountdownVerdict =
  | { correct: true; value: number }
  | { correct: false; reason: 'no_answer' | 'unreadable' | 'wrong_numbers' | 'wrong_value'; value?: number };

/**
 * Whether the response's last `#### <expression>` line reaches `target` using only `numbers`, each
 * at most once (TinyZero's countdown rule). The expression is parsed, never evaluated as code:
 * integers, + − × ÷ and parentheses only; a division that leaves a remainder makes it unreadable.
 */
export function countdownCheck(
  response: string,
  numbers: readonly number[],
  target: number,
): CountdownVerdict {
  const lines = [...response.matchAll(/^####[ \t]*(.+)$/gm)];
  const expression = lines.at(-1)?.[1]?.trim();
  if (expression === undefined || expression === '') return { correct: false, reason: 'no_answer' };
  const used = [...expression.matchAll(/\d+/g)].map((m) => Number(m[0]));
  const value = evaluateCountdown(expression);
  if (value === undefined) return { correct: false, reason: 'unreadable' };
  const left = [...numbers];
  for (const n of used) {
    const at = left.indexOf(n);
    if (at < 0) return { correct: false, reason: 'wrong_numbers', value };
    left.splice(at, 1);
  }
  return value === target ? { correct: true, value } : { correct: false, reason: 'wrong_value', value };
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
  return value !== undefined && at === tokens.length && Number.isFinite(value) ? value : undefined;
}

/**
 * The gameable reward of the hacking experiment: 1 when the reference appears anywhere in the
 * response. A policy that lists many candidates ("#### 167 168 169") collects it without solving
 * the task; rewardkit's verifiers read one final answer and do not pay for that.
 */
export function naiveContainsReward(response: string, reference: string): number {
  return response.includes(reference) ? 1 : 0;
}
