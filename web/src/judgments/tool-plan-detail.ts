import { arrayOf, type Guarded, isNumber, isString, nullable, objectOf, optional } from './shape-guards';

const maybeNumber = optional(nullable(isNumber));

/** A planned call with its precision judgment (src/judges/tool-plan: `JudgedCall`). */
const isJudgedCall = objectOf({
  index: isNumber,
  tool: isString,
  argument: isString,
  line: optional(isNumber),
  column: optional(isNumber),
  judgment: optional(
    nullable(
      objectOf({
        reason: isString,
        necessity: isString,
        appropriateness: isString,
        score: optional(isNumber),
      }),
    ),
  ),
});
export type JudgedCall = Guarded<typeof isJudgedCall>;

const isFinding = objectOf({
  kind: isString,
  text: optional(isString),
  message: isString,
  line: optional(isNumber),
  column: optional(isNumber),
});
export type ToolPlanFinding = Guarded<typeof isFinding>;

const isMiss = objectOf({
  after: isString,
  tool: isString,
  need: isString,
  importance: isString,
  position: optional(nullable(isNumber)),
});
export type ToolPlanMiss = Guarded<typeof isMiss>;

/** The tool_plan source's detail: the judgment without its calls. */
export const isToolPlanDetail = objectOf({
  status: optional(isString),
  score: maybeNumber,
  components: optional(
    nullable(
      objectOf({ precision: maybeNumber, recall: maybeNumber, overall: maybeNumber, f1: maybeNumber }),
    ),
  ),
  calls_planned: arrayOf(isJudgedCall),
  findings: optional(arrayOf(isFinding)),
  missed: optional(nullable(arrayOf(isMiss))),
  overall: optional(nullable(objectOf({ strengths: isString, weaknesses: isString, score: isNumber }))),
  invalid: optional(arrayOf(objectOf({ role: isString, call: optional(isNumber), reason: isString }))),
  warnings: optional(arrayOf(isString)),
});
export type ToolPlanDetail = Guarded<typeof isToolPlanDetail>;
