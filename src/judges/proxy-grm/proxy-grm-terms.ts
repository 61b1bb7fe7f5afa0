/** Which response a verdict names: 1 (the first shown), 2 (the second), or neither. */
export type ShownPosition = 1 | 2;

/**
 * The positions an answer names: every standalone "1" or "2" in it ("Response 1" → {1}; "1 or 2"
 * → {1, 2}; "neither" → {}). Read this way so that a hedge naming both is caught, not read as its
 * first mention.
 */
export function answerPositions(answer: string): ReadonlySet<ShownPosition> {
  const named = new Set<ShownPosition>();
  for (const match of answer.matchAll(/(?<![0-9.])([12])(?![0-9.])/g))
    named.add(Number(match[1]) as ShownPosition);
  return named;
}

/** acc: +1 iff the verdict names the labelled response and only that one, else −1. */
export function accTerm(named: ReadonlySet<ShownPosition>, label: ShownPosition): 1 | -1 {
  return named.size === 1 && named.has(label) ? 1 : -1;
}

/** The proxy's prediction: a position, or `transport` when no model call got an answer. */
export type ProxyPrediction = ShownPosition | 'wrong' | 'transport';

/**
 * proxy: +1 iff the proxy predicted the labelled response, −1 when it predicted the other or gave
 * no readable prediction (`wrong`), 0 when its calls never reached a model (recorded, never read
 * as wrong).
 */
export function proxyTerm(prediction: ProxyPrediction, label: ShownPosition): 1 | 0 | -1 {
  if (prediction === 'transport') return 0;
  return prediction === label ? 1 : -1;
}

const BLOCKS = ['rubric', 'evaluation', 'answer'] as const;

const count = (text: string, needle: string) => text.split(needle).length - 1;

/**
 * format: 1 iff the output has exactly one `<rubric>…</rubric>`, one `<evaluation>…</evaluation>`
 * and one `<answer>…</answer>` block, in that order (the rubric is read as written before the
 * evaluation), else 0.
 */
export function formatTerm(output: string): 0 | 1 {
  let at = 0;
  for (const tag of BLOCKS) {
    const open = `<${tag}>`;
    const close = `</${tag}>`;
    if (count(output, open) !== 1 || count(output, close) !== 1) return 0;
    const start = output.indexOf(open);
    const end = output.indexOf(close);
    if (start < at || end < start) return 0;
    at = end + close.length;
  }
  return 1;
}

/**
 * The rubric the proxy sees: the inside of the first rubric block, with any `<justify>` part cut
 * (a justification argues for a verdict). Only the block, not the text before it: a policy that
 * wrote its answer first would otherwise hand the proxy its verdict. Undefined without a closed
 * rubric block.
 */
export function extractRubric(output: string): string | undefined {
  const start = output.indexOf('<rubric>');
  const end = output.indexOf('</rubric>', start);
  if (start < 0 || end < 0) return undefined;
  const inner = output.slice(start + '<rubric>'.length, end);
  const justify = inner.indexOf('<justify>');
  const rubric = (justify < 0 ? inner : inner.slice(0, justify)).trim();
  return rubric === '' ? undefined : rubric;
}

/** The answer block's text, where there is one. */
export function extractAnswer(output: string): string | undefined {
  const match = /<answer>([\s\S]*?)<\/answer>/.exec(output);
  return match?.[1];
}
