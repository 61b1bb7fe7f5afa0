/** The store key of an analysis run's HTML report, which the inspector serves. */
export const reportStateKey = (runId: string): string => `report/${runId}`;

/**
 * What an analysis command (redteam, audit, calibration) stores as its run's summary: its kind, a
 * one-line headline for run lists, and the command's own report. Scoring runs have no `kind`.
 */
export interface AnalysisSummary {
  readonly kind: string;
  readonly headline: string;
  readonly [field: string]: unknown;
}

/** The kind and headline of a stored run's summary, when an analysis command wrote it. */
export function analysisOf(summary: unknown): { kind: string; headline: string } | undefined {
  if (typeof summary !== 'object' || summary === null) return undefined;
  const { kind, headline } = summary as Partial<AnalysisSummary>;
  return typeof kind === 'string' && typeof headline === 'string' ? { kind, headline } : undefined;
}
