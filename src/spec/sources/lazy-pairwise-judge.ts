import type { PairwiseJudge } from '../../judges/index.js';

/**
 * A pairwise judge made on its first judgment, so that asking a kind for its judge (bench, BRPO,
 * skill bindings) loads no implementation until a pair is judged. `name` must be the name the
 * made judge carries: it is read before any judgment.
 */
export function lazyPairwiseJudge(name: string, make: () => Promise<PairwiseJudge>): PairwiseJudge {
  let judge: Promise<PairwiseJudge> | undefined;
  return {
    name,
    judge: async (pair, options) => (await (judge ??= make())).judge(pair, options),
  };
}
