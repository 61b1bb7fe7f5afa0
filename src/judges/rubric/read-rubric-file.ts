import { readFileSync } from 'node:fs';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { rubricIssueText } from './rubric-issue-text.js';
import { type Rubric, RubricSchema } from './rubric-schema.js';

/**
 * A rubric file (YAML or JSON, one rubric): the rubric, or every problem in it, each naming the
 * file, the line and the field (`rubric.yaml:7: field "criteria.1.weight": ...`).
 */
export function readRubricFile(file: string): { rubric: Rubric } | { problems: string[] } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(readFileSync(file));
  } catch (error) {
    return { problems: [`${file}: cannot read the rubric file: ${(error as Error).message}`] };
  }
  const lines = new LineCounter();
  const doc = parseDocument(text, {
    lineCounter: lines,
    prettyErrors: false,
    uniqueKeys: true,
    logLevel: 'error',
  });
  if (doc.errors.length > 0)
    return {
      problems: doc.errors.map(
        (e) => `${file}:${lines.linePos(e.pos[0]).line}: ${e.message.split('\n')[0] ?? e.message}`,
      ),
    };
  const parsed = RubricSchema.safeParse(doc.toJS());
  if (parsed.success) return { rubric: parsed.data };
  const lineOf = (path: readonly PropertyKey[]): number => {
    // The deepest node that exists along the path: a missing field points at its parent.
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
    }
    return 1;
  };
  return {
    problems: parsed.error.issues.map((issue) => `${file}:${lineOf(issue.path)}: ${rubricIssueText(issue)}`),
  };
}
