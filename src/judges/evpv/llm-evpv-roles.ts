import type { ChatModel } from '../../llm/index.js';
import { createConstraintCache, extractVisualConstraints } from './extract-constraints.js';
import { createLlmPremiseAuditor } from './premise-audit.js';
import type { EvpvRoles } from './score-evpv-problem.js';
import { judgeSteps } from './step-judge.js';

/** The models of the three roles; no extractor means only symbolic or given premises can be read. */
export interface EvpvRoleModels {
  readonly extractor?: ChatModel;
  readonly auditor: ChatModel;
  readonly stepJudge: ChatModel;
}

/**
 * The three EVPV roles played by models. The image description is asked once per image and
 * question for as long as the returned function lives (a whole run), whichever sample asks first;
 * the audit and the step judgment are asked per candidate, under that call's signal.
 */
export function llmEvpvRoles(
  models: EvpvRoleModels,
  options: { readonly reasks: number },
): (signal?: AbortSignal) => EvpvRoles {
  const { reasks } = options;
  const extract = createConstraintCache((input) =>
    extractVisualConstraints(input, { ...(models.extractor && { model: models.extractor }), reasks }),
  );
  return (signal) => ({
    extract,
    audit: createLlmPremiseAuditor({ model: models.auditor, reasks, ...(signal && { signal }) }),
    judgeSteps: (input) => judgeSteps(input, { model: models.stepJudge, reasks, ...(signal && { signal }) }),
  });
}
