import type { CallTrace } from '../llm/index.js';

/** A pair under judgment: the request and two responses; `reference` helps judges that use one. */
export interface PairInput {
  prompt: string;
  first: string;
  second: string;
  /** A ground-truth answer, when the sample has one (OpenRS's verifiable pre-check uses it). */
  reference?: string;
  /**
   * Instruction constraints on the request: free text, or IFEval `{instruction_id, kwargs}`.
   * Judges with a constraint pre-check (OpenRS) check them all; others ignore them.
   */
  constraints?: ReadonlyArray<
    string | { instruction_id: string; kwargs?: Record<string, unknown> | null | undefined }
  >;
  /**
   * The sample's metadata, for judges that build evidence from it (Skill-RM's per-sample
   * resources, with label keys removed before a model sees them); others ignore it.
   */
  metadata?: Readonly<Record<string, unknown>>;
}

/** One ordered comparison inside a pairwise judgment. */
export interface OrderedComparison {
  /** `forward`: the first response was shown first (as A / Response 1); `backward`: swapped. */
  order: 'forward' | 'backward';
  vote: number;
  /** Who this comparison favours, in the pair's own terms (not the shown positions). */
  winner?: 'first' | 'second' | 'tie';
  /** Why this comparison is unreadable; it then has no `winner`. */
  invalid?: string;
}

/**
 * What every pairwise judge returns, so benchmarks, specs and group shaping can use any of them.
 * `inconsistent`: the orders disagreed (kept, never hidden as a tie); `invalid`: nothing readable.
 */
export interface PairwiseJudgment {
  verdict: 'first' | 'second' | 'tie' | 'inconsistent' | 'invalid';
  comparisons: OrderedComparison[];
  calls: CallTrace[];
  /** The judge's own detail (criteria, scores, pre-checks) for the trace. */
  detail?: unknown;
  /** Why the judgment is `invalid`. */
  reason?: string;
  /** What settled it, when a judge has several routes (OpenRS: `ground truth`, `constraints`, `rubric`). */
  decidedBy?: string;
  /** What the judge could not do as asked but worked around (an unchecked pre-check, …). */
  warnings?: string[];
}

/** A configured pairwise judge: a model, options and a prompt protocol behind one call. */
export interface PairwiseJudge {
  /** `genrm`, `openrs`, …: stored with each judgment. */
  readonly name: string;
  judge(pair: PairInput, options?: { signal?: AbortSignal }): Promise<PairwiseJudgment>;
}
