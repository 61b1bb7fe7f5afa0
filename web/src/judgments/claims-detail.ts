import {
  arrayOf,
  type Guarded,
  isBoolean,
  isNumber,
  isRecord,
  isString,
  objectOf,
  oneOf,
  optional,
} from './shape-guards';

/** One Checker run's say on one claim (src/judges/claims: `ClaimVote`). */
const isClaimVote = objectOf({
  run: optional(isNumber),
  status: oneOf('answered', 'cannot_answer', 'missing'),
  evidence: optional(isString),
  answer: optional(isString),
  match: isBoolean,
  by: optional(isString),
  judgeReason: optional(isString),
  point: optional(isNumber),
});
export type ClaimVote = Guarded<typeof isClaimVote>;

/** A claim, checked (verdict, sum, label, votes) or, in an invalid check, only proposed. */
const isClaim = objectOf({
  id: isString,
  question: isString,
  expected: isString,
  verdict: optional(oneOf('supported', 'fault')),
  sum: optional(isNumber),
  tie: optional(isBoolean),
  label: optional(isString),
  votes: optional(arrayOf(isClaimVote)),
});
export type CheckedClaim = Guarded<typeof isClaim>;

const isCheckerRun = objectOf({
  run: isNumber,
  missing: optional(arrayOf(isString)),
  unknown: optional(arrayOf(isString)),
  duplicates: optional(arrayOf(isString)),
});

/** The claims (MARCH) source's detail: the judgment without its calls. */
export const isClaimsDetail = objectOf({
  status: optional(isString),
  stage: optional(isString),
  score: optional(isNumber),
  verdict: optional(isString),
  aggregate: optional(isString),
  figures: optional(isRecord),
  claims: arrayOf(isClaim),
  runs: optional(arrayOf(isCheckerRun)),
  thinkDropped: optional(isBoolean),
  flags: optional(arrayOf(isString)),
  warnings: optional(arrayOf(isString)),
});
export type ClaimsDetail = Guarded<typeof isClaimsDetail>;
