import { normalizeAnswer } from '../verify/reference/index.js';

/** A question that passed validation, with its ground truth: a task a solver can be trained on. */
export interface VerifiedTask {
  id: string;
  round: number;
  seed_id: string;
  question: string;
  answer: string;
  golds: string[];
  /** The proposer's searches, in order. */
  searches: string[];
  /** s: the fraction of solver rollouts that earned a reward. */
  solve_rate: number | null;
}

/**
 * The pool of verified tasks, one per distinct question (compared normalized), so repeated rounds
 * over the same seeds do not fill it with copies.
 */
export class ProblemPool {
  readonly #tasks = new Map<string, VerifiedTask>();

  /** Adds `task`; false when the same question is already in the pool. */
  add(task: VerifiedTask): boolean {
    const key = normalizeAnswer(task.question);
    if (this.#tasks.has(key)) return false;
    this.#tasks.set(key, task);
    return true;
  }

  has(question: string): boolean {
    return this.#tasks.has(normalizeAnswer(question));
  }

  get size(): number {
    return this.#tasks.size;
  }

  tasks(): VerifiedTask[] {
    return [...this.#tasks.values()];
  }
}
