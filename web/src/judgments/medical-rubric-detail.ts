import {
  arrayOf,
  type Guarded,
  isNumber,
  isString,
  nullable,
  objectOf,
  oneOf,
  optional,
} from './shape-guards';

const credit = objectOf({ credit: isNumber, max: isNumber });

/** One criterion as the judge graded it (src/judges/medical: `MedicalCriterionGrade`). */
const isCriterionGrade = objectOf({
  id: isString,
  section: oneOf('essential', 'important', 'highlight', 'pitfall'),
  title: optional(isString),
  weight: optional(isNumber),
  grade: oneOf('not_met', 'partially_met', 'fully_met', 'no_pitfall', 'minor_error', 'major_error'),
  evidence: optional(isString),
  reason: optional(isString),
});
export type MedicalCriterionGrade = Guarded<typeof isCriterionGrade>;

/** The medical_rubric source's detail of a graded response: the breakdown and every grade. */
export const isMedicalRubricDetail = objectOf({
  rubric_id: optional(isString),
  rubric_from: optional(isString),
  score: isNumber,
  breakdown: objectOf({
    essential: credit,
    important: credit,
    highlight: credit,
    pitfall: objectOf({ deduction: isNumber, max: isNumber }),
    extraCredit: optional(isNumber),
    essentialCap: optional(nullable(isNumber)),
    rules: arrayOf(isString),
    raw: optional(isNumber),
    min: optional(isNumber),
    max: optional(isNumber),
  }),
  grades: arrayOf(isCriterionGrade),
});
export type MedicalRubricDetail = Guarded<typeof isMedicalRubricDetail>;
