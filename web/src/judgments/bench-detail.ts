import {
  arrayOf,
  type Guarded,
  isNumber,
  isString,
  nullable,
  objectOf,
  oneOf,
  optional,
} from './shape-guards';

/** One benchmark judgment as a bench run stores it (src/cli/bench-record-result.ts): the record's fields and the judge's name. */
export const isBenchDetail = objectOf({
  judge: isString,
  key: isString,
  kind: oneOf('pairwise', 'listwise', 'ratings'),
  outcome: oneOf('correct', 'wrong', 'tie', 'invalid'),
  verdict: optional(isString),
  better: optional(oneOf('first', 'second', 'none')),
  comparisons: optional(
    arrayOf(
      objectOf({
        order: oneOf('forward', 'backward'),
        vote: isNumber,
        winner: optional(oneOf('first', 'second', 'tie')),
        invalid: optional(isString),
      }),
    ),
  ),
  lengths: optional(objectOf({ first: isNumber, second: isNumber })),
  chosen_label: optional(isString),
  picked: optional(isString),
  ratings: optional(arrayOf(nullable(isNumber))),
  num_correct: optional(isNumber),
  reason: optional(isString),
});
export type BenchDetail = Guarded<typeof isBenchDetail>;
