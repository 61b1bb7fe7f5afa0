export { type Aggregation, aggregateEvidence, sourceName } from './aggregate.js';
export {
  createEvaluator,
  type Evaluator,
  type EvaluatorOptions,
  specWarnings,
} from './evaluator.js';
export { globMatcher } from './glob-matcher.js';
export {
  defineJudgeKind,
  isJudgeKind,
  type JudgeKind,
  type JudgeKindHelp,
  pairwiseJudgeKinds,
} from './judge-kind.js';
export { type JudgedRow, type JudgeRowFormat, lineCost, type RowLine } from './judge-rows.js';
export { loadSpec, parseSpec, type SafeSpecResult, safeParseSpec } from './parse-spec.js';
export { presetNames, presetText } from './presets.js';
export { SourceFailedError } from './source-failed-error.js';
export {
  defineSourceKind,
  type GroupSourceCheck,
  type GroupSourceFailure,
  type SourceCheck,
  type SourceContext,
  type SourceKind,
  type SourceOutcome,
  type SourceServices,
} from './source-kind.js';
export { type SourceKindRegistry, sourceKinds } from './source-kinds.js';
export { panelRatingsOf } from './sources/panel-ratings.js';
export type { PanelDetail, PanelMemberJudgment } from './sources/panel-source.js';
export { skillRmRuntime } from './sources/skill-rm-bindings.js';
export { formatPath, renderSpecIssues, SpecError, type SpecIssue } from './spec-error.js';
export {
  type ErrorPolicy,
  type LeafSpec,
  LeafSpecSchema,
  type ResolvedSpec,
  type RewardSpecDocument,
  type RoutedSpec,
  RoutedSpecSchema,
  type SourceConfig,
  SourceConfigSchema,
} from './spec-schema.js';
