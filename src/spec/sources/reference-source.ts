import { z } from 'zod';
import { RewardKitError, referencesOf } from '../../core/index.js';
import { verifyReference } from '../../verify/reference/index.js';
import { defineSourceKind } from '../source-kind.js';

/** Short-answer match against the sample's reference(s). */
export const referenceSource = defineSourceKind({
  kind: 'reference',
  description: 'match against references: normalized exact, containment, token F1 or MARCH numeric',
  params: z.strictObject({
    mode: z.enum(['exact', 'contains', 'substring', 'f1', 'numeric']).default('exact'),
    /** F1 at or above this passes (mode f1). */
    threshold: z.number().min(0).max(1).optional(),
    /** Where the answer is taken from before matching: the whole response, `<answer>` tags, or after "Answer:". */
    extract: z.enum(['none', 'answer_tag', 'answer_line']).default('none'),
  }),
  create: (params) => (sample) => {
    const golds = referencesOf(sample);
    if (golds.length === 0) {
      throw new RewardKitError('RK_SOURCE_FAILED', 'the sample has no "reference" to match against');
    }
    const result = verifyReference(sample.response, golds, {
      mode: params.mode,
      ...(params.threshold !== undefined && { threshold: params.threshold }),
      ...(params.extract !== 'none' && { extract: params.extract }),
    });
    return { score: result.score, verdict: result.pass ? 'pass' : 'fail', detail: result };
  },
});
