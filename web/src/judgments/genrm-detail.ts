import { arrayOf, type Guarded, isNumber, isString, objectOf, oneOf, optional } from './shape-guards';

/** One ordered call's reply (src/judges/genrm-judge.ts: `GenrmOutput`): scores by position shown. */
const isGenrmOutput = objectOf({
  principles: arrayOf(isString),
  critique: isString,
  score_1: isNumber,
  score_2: isNumber,
});

/** One comparison: its order and vote, and the winner in the pair's terms or why it was unreadable. */
const isGenrmComparison = objectOf({
  order: oneOf('forward', 'backward'),
  vote: isNumber,
  winner: optional(oneOf('first', 'second', 'tie')),
  invalid: optional(isString),
  output: optional(isGenrmOutput),
});
export type GenrmComparison = Guarded<typeof isGenrmComparison>;

/** The genrm source's detail against the reference: the verdict and every comparison behind it. */
export const isGenrmDetail = objectOf({
  verdict: oneOf('first', 'second', 'tie', 'inconsistent', 'invalid'),
  comparisons: arrayOf(isGenrmComparison),
  reason: optional(isString),
});
export type GenrmDetail = Guarded<typeof isGenrmDetail>;
