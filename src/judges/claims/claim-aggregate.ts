import type { ClaimAggregate } from './claim-aggregate-schema.js';
import type { ClaimVerdict } from './claim-verdict.js';
import { factScore } from './factscore.js';
import { marchSolverReward } from './march-solver-reward.js';
import { ragasFaithfulness } from './ragas-faithfulness.js';
import { refcheckerAggregate } from './refchecker-aggregate.js';
import { safeF1AtK } from './safe-f1.js';

// The names live apart from the aggregators so that a spec's params schema can list them without
// loading the scoring code.
export { type ClaimAggregate, ClaimAggregateSchema } from './claim-aggregate-schema.js';

export interface ClaimAggregateOptions {
  /** SAFE's K: how many supported facts make full recall (default 64, SAFE's F1@64). */
  readonly safeK?: number;
  /** The fraction presets (ragas, factscore, safe_f1, refchecker_soft) pass at or above this (default 0.5). */
  readonly passAt?: number;
}

/** An answer's score under one aggregate, with the figures behind it. */
export interface ClaimScore {
  readonly score: number;
  /** MARCH rewards: no fault; strict/majority RefChecker: entailment; fractions: score ≥ passAt. */
  readonly pass: boolean;
  readonly figures: Readonly<Record<string, unknown>>;
}

type Aggregator = (verdicts: readonly ClaimVerdict[], options: Required<ClaimAggregateOptions>) => ClaimScore;

const counts = (verdicts: readonly ClaimVerdict[]) => {
  const supported = verdicts.filter((v) => v.verdict === 'supported').length;
  return { supported, faults: verdicts.length - supported, total: verdicts.length };
};

const march =
  (mode: 'zero_tolerance' | 'proportional'): Aggregator =>
  (verdicts) => {
    const c = counts(verdicts);
    return { score: marchSolverReward(c.faults, mode), pass: c.faults === 0, figures: c };
  };

const fraction = (score: number, passAt: number, figures: Record<string, unknown>): ClaimScore => ({
  score,
  pass: score >= passAt,
  figures,
});

const refchecker =
  (mode: 'strict' | 'soft' | 'majority'): Aggregator =>
  (verdicts, { passAt }) => {
    const r = refcheckerAggregate(
      verdicts.map((v) => v.label),
      mode,
    ) as NonNullable<ReturnType<typeof refcheckerAggregate>>;
    const figures = { ...counts(verdicts), label: r.label, shares: r.shares };
    return mode === 'soft'
      ? fraction(r.score, passAt, figures)
      : { score: r.score, pass: r.score === 1, figures };
  };

// Looked up by name from the spec and the CLI; every entry is called with at least one claim.
const AGGREGATORS: Record<ClaimAggregate, Aggregator> = {
  zero_tolerance: march('zero_tolerance'),
  proportional: march('proportional'),
  ragas: (verdicts, { passAt }) => {
    const c = counts(verdicts);
    return fraction(ragasFaithfulness(c.supported, c.total) as number, passAt, c);
  },
  factscore: (verdicts, { passAt }) => {
    const c = counts(verdicts);
    return fraction(factScore(c.supported, c.total) as number, passAt, c);
  },
  safe_f1: (verdicts, { passAt, safeK }) => {
    const c = counts(verdicts);
    const f = safeF1AtK(c.supported, c.faults, safeK) as NonNullable<ReturnType<typeof safeF1AtK>>;
    return fraction(f.f1, passAt, { ...c, k: safeK, precision: f.precision, recall: f.recall });
  },
  refchecker_strict: refchecker('strict'),
  refchecker_soft: refchecker('soft'),
  refchecker_majority: refchecker('majority'),
};

/**
 * Scores an answer's claim verdicts under `aggregate`. Undefined when there are no claims: nothing
 * was checked, and the caller reports that (0, flagged `no_claims`) instead of inventing a score.
 */
export function aggregateClaims(
  verdicts: readonly ClaimVerdict[],
  aggregate: ClaimAggregate,
  options: ClaimAggregateOptions = {},
): ClaimScore | undefined {
  if (verdicts.length === 0) return undefined;
  return AGGREGATORS[aggregate](verdicts, { safeK: options.safeK ?? 64, passAt: options.passAt ?? 0.5 });
}
