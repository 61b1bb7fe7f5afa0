import { describe, expect, test } from 'vitest';
import { isScalar, parseDocument, visit } from 'yaml';
import { presetNames, presetText } from './presets.js';

describe('presets', () => {
  // An unquoted ` #` ends a plain YAML string: `description: … anchors, ####, last number).` keeps
  // only the words before `####`, silently. A plain string with a comment after it is such a cut.
  test.each(presetNames())('should keep every plain string of %s whole (no ` #` cutting it)', (name) => {
    const doc = parseDocument(presetText(name) ?? '');
    const cut: string[] = [];
    visit(doc, {
      Scalar(_key, node) {
        if (isScalar(node) && node.type === 'PLAIN' && typeof node.value === 'string' && node.comment) {
          cut.push(`${node.value} #${node.comment}`);
        }
      },
    });
    expect(cut).toEqual([]);
  });
});
