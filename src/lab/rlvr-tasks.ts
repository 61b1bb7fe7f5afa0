import { createRng, type Rng } from '../core/rng.js';
import { evaluateCountdown } from '../verify/countdown/index.js';

/**
 * Seeded synthetic verifiable tasks for RL in the lab (issue 29 §2): short enough for the lab's
 * character-level model, each answer in a form rewardkit's checks read (`#### <answer>`, or
 * `\boxed{<answer>}` for addition and sorting).
 * - addition: `add 123+45` → `#### 168` (checked by the math verifier);
 * - sorting: `sort 3 1 2` → `#### 1 2 3` (exact match on the answer line);
 * - countdown: `reach 46 with 3 7 25` → `#### 25+3*7`, an expression over the given numbers,
 *   each once, that evaluates to the target (the `countdown` verifier, `src/verify/countdown`).
 */
export const RLVR_TASK_KINDS = ['addition', 'sorting', 'countdown'] as const;
export type RlvrTaskKind = (typeof RLVR_TASK_KINDS)[number];

/** How a policy writes its answer: GSM8K's `#### 42` line, or `\boxed{42}` (MATH's). */
export const ANSWER_FORMATS = ['hash', 'boxed'] as const;
export type AnswerFormat = (typeof ANSWER_FORMATS)[number];

export interface RlvrTask {
  id: string;
  kind: RlvrTaskKind;
  /** The format the task's gold answer is written in (default `hash`). */
  answerFormat?: AnswerFormat;
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
  /** The gold answer's format (default `hash`). */
  answerFormat?: AnswerFormat;
}

/** `n` tasks of `kind` from `seed`: the same arguments give the same tasks, ids `<kind>-<seed>-<i>`. */
export function rlvrTasks(
  kind: RlvrTaskKind,
  n: number,
  seed: number,
  options: RlvrTaskOptions = {},
): RlvrTask[] {
  const rng = createRng(seed);
  const format = options.answerFormat === 'boxed' ? { answerFormat: options.answerFormat } : {};
  return Array.from({ length: n }, (_, i) => ({
    id: `${kind}-${seed}-${i}`,
    ...MAKERS[kind](rng, options),
    ...format,
  }));
}

/** The answer line a policy writes: `#### <answer>`, or `\boxed{<answer>}`. */
export const answerLine = (answer: string, format: AnswerFormat = 'hash') =>
  format === 'boxed' ? `\\boxed{${answer}}` : `#### ${answer}`;

/** A task's gold answer line, in its format. */
export const goldAnswer = (task: RlvrTask) => answerLine(task.reference, task.answerFormat);

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

/**
 * The gameable reward of the hacking experiment: 1 when the reference appears anywhere in the
 * response. A policy that lists many candidates ("#### 167 168 169") collects it without solving
 * the task; rewardkit's verifiers read one final answer and do not pay for that.
 */
export function naiveContainsReward(response: string, reference: string): number {
  return response.includes(reference) ? 1 : 0;
}
