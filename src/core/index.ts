export { clubEstimate, gaussianClubEstimate } from './club-estimate.js';
export { ConversationSchema, SampleRowSchema, withConversationRows } from './conversation.js';
export {
  ArgumentError,
  errorMessage,
  type Issue,
  issuesOf,
  issuesText,
  parseArgument,
  RewardKitError,
  type RewardKitErrorCode,
} from './errors.js';
export { escapeRegExp } from './escape-regexp.js';
export { type Evidence, EvidenceSchema, type Verdict, VerdictSchema } from './evidence.js';
export { isWithin } from './is-within.js';
export {
  type JudgeCall,
  type JudgeCallMessage,
  JudgeCallMessageSchema,
  JudgeCallSchema,
} from './judge-call.js';
export { addUsageTotals, type LlmUsage, LlmUsageSchema, type UsageTotals } from './llm-usage.js';
export { mapConcurrent } from './map-concurrent.js';
export {
  importOptional,
  OPTIONAL_PARTS,
  type OptionalPartName,
  optionalPackageError,
  requireOptional,
} from './optional-package.js';
export { failedResult, type RewardResult, RewardResultSchema } from './reward-result.js';
export { createRng, type Rng } from './rng.js';
export {
  type ChatMessage,
  ChatMessageSchema,
  promptText,
  referencesOf,
  type Sample,
  SampleIdSchema,
  type SampleInput,
  SampleSchema,
  sampleText,
} from './sample.js';
export { type WorkerEntry, workerEntry } from './worker-entry.js';
export { type SlotReply, startWorkerSlot, type WorkerSlot, type WorkerSlotOptions } from './worker-slot.js';
