import { z } from 'zod';
import type { ClaimMode } from './claim.js';
import { questionStatesValue } from './question-states-value.js';

// Models often write numbers as JSON numbers; the value is compared as text either way. No
// transforms here: the schema is also sent to the backend as JSON Schema.
const valueText = z.union([z.string(), z.number()]);
/** A claim's expected value as text. */
export const expectedText = (value: string | number) => String(value).trim();
// What MARCH's matcher can read as a number once it strips `% k K w W ,`.
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * What the Proposer must return: `{claims: [{question, expected}]}`. Numeric claims must expect a
 * plain number, and no question may state its own expected value; every problem is listed in one
 * issue, so a re-ask shows the model all of them.
 */
function schemaFor(mode: ClaimMode) {
  return z
    .object({
      claims: z.array(z.object({ question: z.string().min(1), expected: valueText })),
    })
    .superRefine((value, ctx) => {
      const problems: string[] = [];
      value.claims.forEach((raw, i) => {
        const claim = { question: raw.question.trim(), expected: expectedText(raw.expected) };
        if (claim.question === '') problems.push(`claim ${i + 1} has an empty "question"`);
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

// Built once per mode: the backend is sent the JSON Schema of the same object on every call.
const SCHEMAS = { numeric: schemaFor('numeric'), claims: schemaFor('claims') };

export function proposerReplySchema(mode: ClaimMode) {
  return SCHEMAS[mode];
}
export type ProposerReply = z.infer<ReturnType<typeof schemaFor>>;
