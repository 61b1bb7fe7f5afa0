import type { CallTrace, ChatModel } from '../../llm/index.js';

/** A pair as shown to a producer: the request and two responses in positions 1 and 2. */
export interface ShownPair {
  readonly id: string;
  readonly prompt: string;
  readonly first: string;
  readonly second: string;
}

/**
 * What a producer wrote for one pair, split so the proxy gets the rubric and nothing else:
 * `rubric` is the text the proxy sees; `evaluation` and `verdict` stay with the record. `complete`
 * is the format term for producers that answer in structured fields: every part (rubric,
 * evaluation, verdict) was read.
 */
export type ProducedRubric =
  | {
      readonly status: 'ok';
      readonly rubric: string;
      readonly evaluation: unknown;
      /** The positions the producer's verdict names: [1], [2], [1, 2] for a tie, [] for none. */
      readonly verdict: ReadonlyArray<1 | 2>;
      readonly complete: boolean;
      /** Why the verdict is missing, where it is. */
      readonly invalid?: string;
      readonly calls: CallTrace[];
    }
  /** No rubric to show: `transport` when no call got an answer (never read as a wrong rubric). */
  | {
      readonly status: 'failed';
      readonly reason: string;
      readonly transport: boolean;
      readonly calls: CallTrace[];
    };

export interface ProduceOptions {
  readonly model: ChatModel;
  readonly signal?: AbortSignal;
}

/**
 * A rubric producer whose rubrics the proxy scores. Adding one (a new rubric judge) is one module
 * exporting an object of this shape and one line in `rubricProducers`.
 */
export interface RubricProducer {
  /** The `--producer` name. */
  readonly name: string;
  produce(pair: ShownPair, options: ProduceOptions): Promise<ProducedRubric>;
}

/** Positions named by a pairwise verdict in the pair's own terms. */
export function verdictPositions(verdict: string): ReadonlyArray<1 | 2> {
  if (verdict === 'first') return [1];
  if (verdict === 'second') return [2];
  // A tie or inconsistent orders name both; an invalid judgment names none.
  if (verdict === 'tie' || verdict === 'inconsistent') return [1, 2];
  return [];
}
