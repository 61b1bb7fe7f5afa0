import { z } from 'zod';
import { RewardKitError, referencesOf, type Sample } from '../../core/index.js';
import { countdownCheck } from '../../verify/countdown/index.js';
import { defineSourceKind } from '../source-kind.js';

/**
 * TinyZero's ground truth: `metadata.target` + `metadata.numbers`, `metadata.ground_truth` (what
 * `--format verl` keeps of `reward_model.ground_truth`), or the reference's JSON.
 */
const CountdownTruthSchema = z.object({
  target: z.number().int(),
  numbers: z.array(z.number().int().nonnegative()).min(1),
});

function truthOf(sample: Sample): z.output<typeof CountdownTruthSchema> {
  for (const candidate of [sample.metadata, sample.metadata.ground_truth]) {
    const parsed = CountdownTruthSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  for (const reference of referencesOf(sample)) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(reference);
    } catch {
      continue;
    }
    const fromReference = CountdownTruthSchema.safeParse(parsed);
    if (fromReference.success) return fromReference.data;
  }
  throw new RewardKitError(
    'RK_SOURCE_FAILED',
    'countdown needs "metadata.target" (an integer) and "metadata.numbers" (integers), the same under "metadata.ground_truth" (verl\'s reward_model.ground_truth), or a reference {"target", "numbers"} as JSON',
  );
}

/** The countdown task: the answer's expression must reach the target with the numbers on offer. */
export const countdownSource = defineSourceKind({
  kind: 'countdown',
  description:
    'countdown arithmetic (TinyZero): the answer expression reaches the target with the given numbers (1 correct, else 0)',
  params: z.strictObject({
    extract: z
      .enum(['answer_tag', 'hash_line'])
      .default('answer_tag')
      .describe('where the expression is read: the last <answer> block, or the last "#### " line'),
    use_all: z
      .boolean()
      .default(true)
      .describe('every number exactly once (TinyZero), else each at most once'),
    format_score: z
      .number()
      .min(0)
      .max(1)
      .default(0)
      .describe('score of a readable but wrong expression (TinyZero uses 0.1)'),
  }),
  create: (params) => (sample) => {
    const { target, numbers } = truthOf(sample);
    const result = countdownCheck(sample.response, numbers, target, {
      extract: params.extract,
      useAll: params.use_all,
    });
    if (result.correct) return { score: 1, verdict: 'pass', detail: result };
    const readable = result.reason === 'wrong_value' || result.reason === 'wrong_numbers';
    return {
      score: readable ? params.format_score : 0,
      verdict: 'fail',
      detail: result,
      reason: result.reason,
    };
  },
});
