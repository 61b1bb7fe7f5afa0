/** The three terms of one rubric's judgment (see `proxy-grm-terms.ts`). */
export interface ProxyGrmTerms {
  readonly acc: 1 | -1;
  /** 0: the proxy's calls never got an answer. */
  readonly proxy: 1 | 0 | -1;
  readonly format: 0 | 1;
}

/** How the terms become one reward. */
export const COMBINERS = ['sum', 'gated', 'gated_mismatch', 'gated_strict'] as const;
export type Combiner = (typeof COMBINERS)[number];

/** The gate's value by (acc, proxy) for proxy ±1: [acc right, acc wrong] × [proxy right, proxy wrong]. */
const GATES: Readonly<
  Record<Exclude<Combiner, 'sum'>, { right: [number, number]; wrong: [number, number] }>
> = {
  // Both right 1.5, only acc right 0.5, else −1.
  gated: { right: [1.5, 0.5], wrong: [-1, -1] },
  // As gated, and a rubric that carried the answer while the verdict missed it is −1.5.
  gated_mismatch: { right: [1.5, 0.5], wrong: [-1.5, -1] },
  // As gated_mismatch, and both wrong is −2.
  gated_strict: { right: [1.5, 0.5], wrong: [-1.5, -2] },
};

/**
 * One reward from the terms. `sum` is the default acc + proxy + 0.5·format (range [−2, 2.5]); the
 * gated forms replace acc + proxy by the gate and keep 0.5·format. A proxy of 0 (unknown) takes
 * the mean of the proxy-right and proxy-wrong values, which is what 0 does in the sum too, so no
 * combiner reads a transport failure as right or as wrong.
 */
export function combineProxyGrm(terms: ProxyGrmTerms, combiner: Combiner): number {
  const format = 0.5 * terms.format;
  if (combiner === 'sum') return terms.acc + terms.proxy + format;
  const row = terms.acc === 1 ? GATES[combiner].right : GATES[combiner].wrong;
  const [proxyRight, proxyWrong] = row;
  const gate =
    terms.proxy === 1 ? proxyRight : terms.proxy === -1 ? proxyWrong : (proxyRight + proxyWrong) / 2;
  return gate + format;
}

/** Every combiner's reward, keyed by its name. */
export function allProxyGrmRewards(terms: ProxyGrmTerms): Record<Combiner, number> {
  return Object.fromEntries(COMBINERS.map((c) => [c, combineProxyGrm(terms, c)])) as Record<Combiner, number>;
}

/** Each combiner's attainable range over every term value (format included): what `unitProxyGrmReward` maps to [0, 1]. */
export const COMBINER_RANGES: Readonly<Record<Combiner, readonly [number, number]>> = {
  sum: [-2, 2.5],
  gated: [-1, 2],
  gated_mismatch: [-1.5, 2],
  gated_strict: [-2, 2],
};

/** A combiner's reward mapped linearly from its range onto [0, 1], for specs whose sources score in [0, 1]. */
export function unitProxyGrmReward(reward: number, combiner: Combiner): number {
  const [low, high] = COMBINER_RANGES[combiner];
  return (reward - low) / (high - low);
}
