/**
 * `rewardkit/server`: embedding the HTTP reward server. `createRewardApp` builds the hono app
 * (test it with `app.request`), `listenRewardApp` serves it; the request schemas are here for
 * clients that validate before they send. Route internals stay inside.
 */
export { ApiError, type ApiIssue } from './api-error.js';
export { createRewardApp, type RewardApp, type RewardAppDeps } from './create-reward-app.js';
export type { GroupShaper, GroupShapingInput, ShapeContext } from './group-shaper.js';
export { type ListeningRewardApp, listenRewardApp } from './listen-reward-app.js';
export { OpenRlhfRequestSchema } from './openrlhf-request.js';
export { createResultWriter, type ResultWriter, type ResultWriterOptions } from './result-writer.js';
export { createRlGroupShaper, type RlGroupShaperDeps } from './rl-group-shaper.js';
export { GroupsRequestSchema } from './routes/groups-route.js';
export { RewardsRequestSchema } from './routes/rewards-route.js';
export { DEFAULT_SERVER_OPTIONS, type ServerOptions } from './server-options.js';
