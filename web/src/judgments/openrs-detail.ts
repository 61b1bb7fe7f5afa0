import {
  arrayOf,
  type Guarded,
  isBoolean,
  isNumber,
  isString,
  isUnknown,
  nullable,
  objectOf,
  oneOf,
  optional,
} from './shape-guards';

const isGroundTruthCheck = objectOf({ score: nullable(isNumber), method: isString, reason: isString });
const isConstraintOutcome = objectOf({ passed: nullable(isBoolean), reason: isString });

/** One instruction constraint checked on both responses (src/judges/openrs: `ConstraintResult`). */
const isConstraintResult = objectOf({
  constraint: isUnknown,
  method: isString,
  first: isConstraintOutcome,
  second: isConstraintOutcome,
});
export type OpenrsConstraintResult = Guarded<typeof isConstraintResult>;

/** One criterion as the judge wrote and compared it, in the order's A/B terms. */
const isJudgedCriterion = objectOf({
  name: isString,
  type: isString,
  dimension: optional(isString),
  evidence_a: optional(isString),
  evidence_b: optional(isString),
  reason: optional(isString),
  winner: oneOf('A', 'B', 'same'),
  strength: isNumber,
});
export type OpenrsCriterion = Guarded<typeof isJudgedCriterion>;

/** One order of the rubric comparison: in `forward` A is the first response, in `backward` the second. */
const isOrder = objectOf({
  order: oneOf('forward', 'backward'),
  output: optional(
    objectOf({ differences: optional(arrayOf(isString)), criteria: arrayOf(isJudgedCriterion) }),
  ),
  aggregate: optional(
    objectOf({ score: isNumber, winner: isString, decidedByHardFlaw: optional(isBoolean) }),
  ),
  invalid: optional(isString),
});
export type OpenrsOrder = Guarded<typeof isOrder>;

/** What OpenRS found on one pair (src/judges/openrs: `OpenrsDetail`). */
const isOpenrsFindings = objectOf({
  decidedBy: isString,
  groundTruth: optional(objectOf({ first: isGroundTruthCheck, second: isGroundTruthCheck })),
  constraints: optional(arrayOf(isConstraintResult)),
  intent: optional(
    objectOf({
      query_type: isString,
      primary_need: isString,
      secondary_needs: optional(arrayOf(isString)),
      user_context: optional(isString),
      domains: optional(arrayOf(isString)),
    }),
  ),
  orders: arrayOf(isOrder),
  warnings: optional(arrayOf(isString)),
});
export type OpenrsFindings = Guarded<typeof isOpenrsFindings>;

/** A pairwise judgment by OpenRS, without its calls: the detail of a response judged against its reference. */
export const isOpenrsPair = objectOf({
  verdict: isString,
  reason: optional(isString),
  detail: isOpenrsFindings,
});
export type OpenrsPair = Guarded<typeof isOpenrsPair>;

/** A rollout's round robin in its group: its record and every match (the judgment kept with one side). */
export const isOpenrsRoundRobin = objectOf({
  mode: oneOf('round_robin'),
  record: objectOf({
    wins: isNumber,
    losses: isNumber,
    ties: isNumber,
    inconsistent: isNumber,
    winRate: optional(nullable(isNumber)),
  }),
  matches: arrayOf(
    objectOf({
      opponent: isString,
      result: isString,
      reason: optional(isString),
      judgment: optional(isUnknown),
      judgment_kept_with: optional(isString),
    }),
  ),
});
export type OpenrsRoundRobin = Guarded<typeof isOpenrsRoundRobin>;
