/** Contradiction severity: High for object counts, key spatial relations and presence of a main object; Low for secondary attributes. */
export type ContradictionSeverity = 'High' | 'Low';

/**
 * EVPV premise reliability p = max(0, 1 − 0.5·#High − 0.2·#Low). Rounded to 12 decimals so that
 * 1 − 0.5 − 0.2 reads 0.3, not 0.30000000000000004, in outputs and tie checks.
 */
export function premiseReliability(severities: readonly ContradictionSeverity[]): number {
  const high = severities.filter((s) => s === 'High').length;
  const low = severities.length - high;
  return Math.max(0, Math.round((1 - 0.5 * high - 0.2 * low) * 1e12) / 1e12);
}
