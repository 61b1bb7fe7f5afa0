import { readFileSync } from 'node:fs';
import { issuesOf, RewardKitError } from '../../core/index.js';
import { type LabelledPair, LabelledPairSchema } from '../../judges/meta-rubric-evolution/index.js';

/**
 * The labelled pairs of a JSONL file, one `{"id", "prompt", "chosen", "rejected"}` per line. Every
 * bad line, a duplicate id and an empty file are errors naming the file and line, before any call.
 */
export function readLabelledPairs(file: string): { pairs: LabelledPair[]; text: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new RewardKitError(
      'RK_USAGE',
      `cannot read the labelled pairs ${file}: ${(error as Error).message}`,
    );
  }
  const pairs: LabelledPair[] = [];
  const problems: string[] = [];
  const lineOf = new Map<string, number>();
  for (const [i, raw] of text.split(/\r?\n/).entries()) {
    if (raw.trim() === '') continue;
    const at = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push(`${at}: not JSON`);
      continue;
    }
    const parsed = LabelledPairSchema.safeParse(value);
    if (!parsed.success) {
      for (const issue of issuesOf(parsed.error, '')) problems.push(`${at}: ${issue.path}: ${issue.message}`);
      continue;
    }
    const earlier = lineOf.get(parsed.data.id);
    if (earlier !== undefined) {
      problems.push(`${at}: id "${parsed.data.id}" is also on line ${earlier}`);
      continue;
    }
    lineOf.set(parsed.data.id, i + 1);
    pairs.push(parsed.data);
  }
  if (problems.length > 0) {
    throw new RewardKitError(
      'RK_INPUT_SCHEMA',
      `invalid labelled pairs (${problems.length} problem(s); each line is {"id", "prompt", "chosen", "rejected"}):\n${problems.join('\n')}`,
    );
  }
  if (pairs.length === 0) {
    throw new RewardKitError(
      'RK_USAGE',
      `${file} holds no labelled pairs: evolution needs {"id", "prompt", "chosen", "rejected"} lines to measure fitness`,
    );
  }
  return { pairs, text };
}
