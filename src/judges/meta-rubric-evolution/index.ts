export { evolutionFitness, type Fitness, FitnessSchema, pairFitness } from './evolution-fitness.js';
export {
  type Generation,
  GenerationSchema,
  type GenerationStore,
  type Variant,
  VariantSchema,
} from './evolution-record.js';
export {
  type EvolutionResult,
  type EvolveMetaRubricOptions,
  evolveMetaRubric,
  type FitnessQuality,
} from './evolve-meta-rubric.js';
export {
  type HeldOutFitness,
  HeldOutFitnessSchema,
  type HeldOutReport,
  HeldOutReportSchema,
  heldOutCheck,
} from './held-out-check.js';
export { heldOutSplit } from './held-out-split.js';
export { type LabelledPair, LabelledPairSchema } from './labelled-pair.js';
export {
  judgeLabelledPair,
  type PairJudgeOptions,
  type PairOutcome,
  PairOutcomeSchema,
} from './pair-outcome.js';
export {
  type MisjudgedPair,
  mutateSection,
  type SectionMutation,
  SectionMutationSchema,
} from './section-mutation.js';
