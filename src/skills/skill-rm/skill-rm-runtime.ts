import type { Sample } from '../../core/index.js';
import type { PairInput, PairwiseJudgment } from '../../judges/index.js';
import type { CodeSandbox } from '../../verify/code/index.js';
import type { JUDGE_BINDINGS, VERIFIER_BINDINGS } from '../skill-resource.js';

/** What a verifier binding found for one response (a source's outcome, as the spec's sources return it). */
export interface BindingOutcome {
  readonly score: number;
  readonly verdict: 'pass' | 'fail' | 'abstain';
  readonly reason?: string;
  readonly detail?: unknown;
}

/**
 * How runtime resources reach rewardkit's own checks. The spec's `skill_rm` source builds one from
 * the source-kind registry (verifiers by their kind, judges by their `pairwise` facet); skills sits
 * below spec, so the judge takes it as an option. A throw is a resource failure the judge sees as
 * a structured tool error, never a verdict.
 */
export interface SkillRmRuntime {
  /** Runs a verifier binding on one response (`sample.response`) of the sample. */
  runVerifier(
    binding: (typeof VERIFIER_BINDINGS)[number],
    sample: Sample,
    signal: AbortSignal | undefined,
  ): Promise<BindingOutcome>;
  /** Runs a judge binding on a pair, in the pair's order. */
  runJudge(
    binding: (typeof JUDGE_BINDINGS)[number],
    pair: PairInput,
    signal: AbortSignal | undefined,
  ): Promise<PairwiseJudgment>;
  /** The code sandbox for the `sandbox` tool; absent: the tool is not offered. */
  codeSandbox?(): CodeSandbox;
}
