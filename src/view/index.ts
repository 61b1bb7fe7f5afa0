export { type AdvantagesReportInput, advantagesReportHtml } from './advantages-report-html.js';
export { type BenchReportHtmlInput, benchReportHtml } from './bench-report-html.js';
export { type CalibrationReportInput, calibrationReportHtml } from './calibration-report-html.js';
export { createViewApp, type ViewAppOptions } from './create-view-app.js';
export { escapeHtml } from './escape-html.js';
export type { RunCost, RunOverview } from './run-overview.js';
export { runOverview } from './run-overview.js';
export { type RunReportInput, runReportHtml } from './run-report-html.js';
export type { SampleDetail } from './sample-detail.js';
