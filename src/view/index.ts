export { createViewApp, type ViewAppOptions } from './create-view-app.js';
export type { RunCost, RunOverview } from './run-overview.js';
export type { SampleDetail } from './sample-detail.js';
