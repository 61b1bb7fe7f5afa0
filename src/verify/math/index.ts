export {
  allBoxed,
  type ExtractedAnswer,
  type ExtractionRule,
  extractMathAnswer,
  extractReference,
  lastBoxed,
  type MultipleAnswers,
  mathSpans,
  stripThinking,
} from './extract-math-answer.js';
export {
  type Equivalence,
  type EquivalenceMethod,
  type EquivalenceOptions,
  mathEquivalent,
} from './math-equivalent.js';
export { type MathValue, type ParseOptions, parseMathValue } from './math-value.js';
export { type NormalizedAnswer, normalizeMathAnswer } from './normalize-math.js';
export {
  type MathExplanation,
  type MathOptions,
  type MathStatus,
  type MathVerification,
  verifyMath,
} from './verify-math.js';
