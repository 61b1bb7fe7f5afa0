import { createHash } from 'node:crypto';
import type { PairwiseJudge } from '../../judges/index.js';
import { usageOf } from '../../llm/index.js';
import { type JudgedPair, judgedOutcome } from './judged-pair.js';
import type { ShownPair } from './labelled-pair.js';

/** Names a judgment by the skill's content hash and the pair as shown (its positions included). */
export function judgmentKey(skill: string, pair: ShownPair): string {
  return createHash('sha256')
    .update([skill, pair.id, pair.prompt, pair.first, pair.second].join('\u0000'))
    .digest('hex')
    .slice(0, 32);
}

export interface JudgePairsOptions {
  readonly judge: PairwiseJudge;
  /** The content hash of the skill the judge holds (`skillHash`). */
  readonly skill: string;
  /** Judgments in flight at most. */
  readonly concurrency: number;
  /** Judgments of an earlier run, by key: reused, not judged again. */
  readonly done?: ReadonlyMap<string, JudgedPair>;
  /** Each new judgment as it finishes, to be written before the next one ends. */
  readonly onJudged?: (judged: JudgedPair) => void | Promise<void>;
}

/**
 * Judges pairs with one skill's judge, `concurrency` at a time, in input order; the label
 * (`better`) is kept beside the judgment and never given to the judge, which sees only the
 * prompt and the two responses.
 */
export async function judgePairs(
  pairs: readonly ShownPair[],
  options: JudgePairsOptions,
): Promise<{ judged: JudgedPair[]; resumed: number }> {
  const judged: (JudgedPair | undefined)[] = pairs.map((p) =>
    options.done?.get(judgmentKey(options.skill, p)),
  );
  const resumed = judged.filter((j) => j !== undefined).length;
  const todo = pairs.map((_, i) => i).filter((i) => judged[i] === undefined);
  let next = 0;
  let written = Promise.resolve();
  const worker = async () => {
    while (next < todo.length) {
      const index = todo[next++] as number;
      const pair = pairs[index] as ShownPair;
      const judgment = await options.judge.judge({
        prompt: pair.prompt,
        first: pair.first,
        second: pair.second,
      });
      const record: JudgedPair = {
        key: judgmentKey(options.skill, pair),
        id: pair.id,
        skill: options.skill,
        better: pair.better,
        verdict: judgment.verdict,
        outcome: judgedOutcome(judgment.verdict, pair.better),
        ...(judgment.reason !== undefined && { reason: judgment.reason }),
        ...(judgment.decidedBy !== undefined && { decided_by: judgment.decidedBy }),
        detail: judgment.detail,
        usage: usageOf(judgment.calls),
      };
      judged[index] = record;
      // Chained so that lines never interleave, whatever order judgments finish in.
      const onJudged = options.onJudged;
      if (onJudged) {
        written = written.then(() => onJudged(record));
        await written;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency, todo.length) }, worker));
  await written;
  return { judged: judged as JudgedPair[], resumed };
}
