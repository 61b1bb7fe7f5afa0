/**
 * The words of a key that carries (or reveals) the label a judge is graded on: the preference,
 * the gold answer's verdict, the winner, the order the responses were shown in, the models that
 * wrote them. A key is label-bearing when any of its words is one of these, whatever its case or
 * style: `chosen`, `Winner`, `is_correct`, `goldAnswer`, `model_a`, `preference-strength`.
 */
export const LABEL_WORDS: ReadonlySet<string> = new Set([
  'label',
  'labels',
  'gold',
  'golden',
  'winner',
  'winners',
  'preference',
  'preferences',
  'preferred',
  'chosen',
  'rejected',
  'correct',
  'correctness',
  'score',
  'scores',
  'order',
  'model',
  'models',
]);

/** A key's words: split at `_`, `-`, `.`, spaces and camelCase humps, lower-cased, trailing digits dropped. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.\-/:]+/)
    .map((word) => word.toLowerCase().replace(/\d+$/, ''))
    .filter((word) => word !== '');
}

/** Whether a key carries the label (see `LABEL_WORDS`). */
export function isLabelKey(key: string): boolean {
  return keyWords(key).some((word) => LABEL_WORDS.has(word));
}

/**
 * A copy of `value` with every label-bearing key removed at any depth (objects inside arrays
 * too); `removed` lists each removed key's path. Strings, numbers and arrays are kept as they are:
 * only keys are judged, so a free-text field keeps its text.
 */
export function sanitizeLabels(value: unknown): { value: unknown; removed: string[] } {
  const removed: string[] = [];
  const walk = (node: unknown, path: string): unknown => {
    if (Array.isArray(node)) return node.map((item, i) => walk(item, `${path}[${i}]`));
    if (node === null || typeof node !== 'object') return node;
    const kept: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(node)) {
      const at = path === '' ? key : `${path}.${key}`;
      if (isLabelKey(key)) removed.push(at);
      else kept[key] = walk(child, at);
    }
    return kept;
  };
  return { value: walk(value, ''), removed };
}
