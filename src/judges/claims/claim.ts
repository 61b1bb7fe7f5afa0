import { z } from 'zod';

/** `numeric`: MARCH's numeric claims (plain numbers); `claims`: short-answer facts of any kind. */
export const ClaimModeSchema = z.enum(['numeric', 'claims']);
export type ClaimMode = z.infer<typeof ClaimModeSchema>;

/** One atomic claim of the answer, written as a question whose answer is the claim's value. */
export interface Claim {
  /** Ours ("C1", "C2", …): the Checker's items are matched back by it, never by position. */
  readonly id: string;
  readonly question: string;
  /** The value the Solver's answer asserts; never shown to the Checker. */
  readonly expected: string;
}

/** What a tied vote decides (an even k, or votes cancelling out). */
export const ClaimTieSchema = z.enum(['fault', 'supported']);
export type ClaimTie = z.infer<typeof ClaimTieSchema>;
