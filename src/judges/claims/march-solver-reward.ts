/** How faults become the Solver's reward. */
export type MarchRewardMode = 'zero_tolerance' | 'proportional';

// MARCH caps the proportional penalty at 13 faults, so one answer costs at most -1.3.
const FAULT_CAP = 13;

/**
 * The MARCH Solver reward (grounding.md §MARCH step 6): zero-tolerance gives -1 for any fault and
 * 0 otherwise; proportional gives -0.1 per fault, at most 13 of them. No claims is handled by the
 * caller (0, flagged), because 0 faults out of 0 claims says nothing.
 */
export function marchSolverReward(faults: number, mode: MarchRewardMode): number {
  if (!Number.isInteger(faults) || faults < 0) {
    throw new RangeError(`faults must be a non-negative integer, got ${faults}`);
  }
  if (mode === 'zero_tolerance') return faults > 0 ? -1 : 0;
  return -0.1 * Math.min(faults, FAULT_CAP);
}
