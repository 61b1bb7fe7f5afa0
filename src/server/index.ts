export { ApiError, type ApiIssue } from './api-error.js';
export { createRewardApp, type RewardApp, type RewardAppDeps } from './create-reward-app.js';
export type { GroupShaper, GroupShapingInput, ShapeContext } from './group-shaper.js';
export { listenError } from './listen-error.js';
export { type ListeningRewardApp, listenRewardApp } from './listen-reward-app.js';
export { OpenRlhfRequestSchema, openRlhfSamples, responseOfQuery } from './openrlhf-request.js';
export { type OpenRlhfResponse, openRlhfResponse } from './openrlhf-response.js';
export {
  createResultWriter,
  type ResultWriter,
  type ResultWriterOptions,
  type SaveBatch,
} from './result-writer.js';
export { createRlGroupShaper, groupMethodRow, type RlGroupShaperDeps } from './rl-group-shaper.js';
export { GroupsRequestSchema } from './routes/groups-route.js';
export { RewardsRequestSchema } from './routes/rewards-route.js';
export { DEFAULT_SERVER_OPTIONS, type ServerOptions } from './server-options.js';
export { unitScore } from './unit-score.js';
