import { z } from 'zod';
import type { ClaimMode } from './claim.js';
import { questionStatesValue } from './question-states-value.js';

// Models often write numbers as JSON numbers; the value is compared as text either way.
const valueText = z.union([z.string(), z.number()]).transform((v) => String(v).trim());
// What MARCH's matcher can read as a number once it strips `% k K w W ,`.
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * What the Proposer must return: `{claims: [{question, expected}]}`. Numeric claims must expect a
 * plain number, and no question may state its own expected value; every problem is listed in one
 * issue, so a re-ask shows the model all of them.
 */
export function proposerReplySchema(mode: ClaimMode) {
  return z
    .object({
      claims: z.array(z.object({ question: z.string().trim().min(1), expected: valueText })),
    })
    .superRefine((value, ctx) => {
      const problems: string[] = [];
      value.claims.forEach((claim, i) => {
        if (claim.expected === '') problems.push(`claim ${i + 1} has an empty "expected"`);
        else if (mode === 'numeric' && !PLAIN_NUMBER.test(claim.expected.replace(/[%kKwW,\s]/g, ''))) {
          problems.push(`claim ${i + 1}: "expected" must be a plain number, got "${claim.expected}"`);
        }
        if (claim.expected !== '' && questionStatesValue(mode, claim.question, claim.expected)) {
          problems.push(
            `claim ${i + 1}: the question must not contain its expected value "${claim.expected}"`,
          );
        }
      });
      if (problems.length > 0)
        ctx.addIssue({ code: 'custom', path: ['claims'], message: problems.join('; ') });
    });
}
export type ProposerReply = z.infer<ReturnType<typeof proposerReplySchema>>;
