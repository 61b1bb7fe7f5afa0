import { type Document, isMap, isNode, isScalar, isSeq, type LineCounter } from 'yaml';

/**
 * The 1-based line of `path` in a parsed YAML document: the key's line for a mapping entry, the
 * item's line for a list entry; a path that does not exist points at its deepest existing parent.
 */
export function yamlLine(doc: Document, lines: LineCounter, path: readonly PropertyKey[]): number {
  for (let depth = path.length; depth > 0; depth--) {
    const parent = depth === 1 ? doc.contents : doc.getIn(path.slice(0, depth - 1), true);
    const key = path[depth - 1];
    if (isMap(parent)) {
      const pair = parent.items.find((item) => isScalar(item.key) && item.key.value === key);
      const range = isNode(pair?.key) ? pair.key.range : undefined;
      if (range) return lines.linePos(range[0]).line;
    }
    if (isSeq(parent) && typeof key === 'number') {
      const item = parent.items[key];
      if (isNode(item) && item.range) return lines.linePos(item.range[0]).line;
    }
  }
  const root = doc.contents;
  return isNode(root) && root.range ? lines.linePos(root.range[0]).line : 1;
}
