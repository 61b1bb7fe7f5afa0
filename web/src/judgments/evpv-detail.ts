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

const isContradiction = objectOf({
  claim: isString,
  constraint: isString,
  severity: isString,
  explanation: optional(isString),
});
export type EvpvContradiction = Guarded<typeof isContradiction>;

/** One step's judgment: +1 or −1 and why, or why there is none (src/judges/evpv: `StepJudgment`). */
const isStepJudgment = objectOf({ score: isNumber, reason: optional(isString), invalid: optional(isString) });
export type EvpvStepJudgment = Guarded<typeof isStepJudgment>;

/** The evpv source's detail: one scored candidate with the image's constraints. */
export const isEvpvDetail = objectOf({
  final_answer: optional(isString),
  correct: optional(isBoolean),
  checklist: arrayOf(isString),
  audit: objectOf({
    status: oneOf('ok', 'invalid'),
    p: isNumber,
    contradictions: optional(arrayOf(isContradiction)),
    reason: optional(isString),
  }),
  step_scores: arrayOf(isNumber),
  step_judgments: optional(arrayOf(isStepJudgment)),
  steps_invalid: optional(objectOf({ reason: isString })),
  visual_steps: arrayOf(isNumber),
  gated_scores: arrayOf(isNumber),
  scores: isRecord,
  constraints: optional(
    objectOf({ caption: isString, key_facts: arrayOf(isString), uncertain: optional(arrayOf(isString)) }),
  ),
  extraction: optional(objectOf({ source: isString, reused: optional(isBoolean) })),
});
export type EvpvDetail = Guarded<typeof isEvpvDetail>;
