import { RewardKitError, referencesOf } from '../../core/index.js';
import { verifyMath } from '../../verify/math/index.js';
import { defineSourceKind } from '../source-kind.js';
import { MathParamsSchema, mathOptionsOf } from './math-params.js';

/** Final-answer correctness against the sample's reference(s): 1 when any gold is equivalent, else 0. */
export const mathSource = defineSourceKind({
  kind: 'math',
  description: 'final-answer extraction and equivalence against the reference (1 correct, 0 not)',
  params: MathParamsSchema,
  create: (params) => {
    const options = mathOptionsOf(params);
    return (sample) => {
      const golds = referencesOf(sample);
      if (golds.length === 0) {
        throw new RewardKitError(
          'RK_SOURCE_FAILED',
          'the sample has no "reference" to compare the answer with',
        );
      }
      const result = verifyMath(sample.response, golds, options);
      if (result.status === 'undecided') {
        if (params.on_undecided === 'error') throw new RewardKitError('RK_SOURCE_FAILED', result.reason);
        return {
          score: params.on_undecided.value,
          verdict: 'abstain',
          detail: result,
          reason: result.reason,
          warnings: [...result.warnings, `undecided, scored ${params.on_undecided.value}: ${result.reason}`],
        };
      }
      return {
        score: result.correct ? 1 : 0,
        verdict: result.correct ? 'pass' : 'fail',
        detail: result,
        reason: result.reason,
        warnings: result.warnings,
      };
    };
  },
});
