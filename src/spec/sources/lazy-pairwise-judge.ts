import type { PairwiseJudge } from '../../judges/index.js';
import { onFirstUse } from './on-first-use.js';

/**
 * A pairwise judge made on its first judgment, so that asking a kind for its judge (bench, BRPO,
 * skill bindings) loads no implementation until a pair is judged. `name` must be the name the
 * made judge carries: it is read before any judgment.
 */
export function lazyPairwiseJudge(name: string, make: () => Promise<PairwiseJudge>): PairwiseJudge {
  const judge = onFirstUse(make);
  return { name, judge: async (pair, options) => (await judge()).judge(pair, options) };
}
