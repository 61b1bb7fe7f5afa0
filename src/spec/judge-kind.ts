import type { z } from 'zod';
import type { PairwiseJudge } from '../judges/index.js';
import type { JudgeRowFormat } from './judge-rows.js';
import type { SourceKind, SourceServices } from './source-kind.js';

/** What `rewardkit judge <kind> --help` says beyond the flags, which come from the params schema. */
export interface JudgeKindHelp {
  /** The sample fields the judge reads, beyond `id`, `prompt` and `response`. */
  readonly reads: string;
  /** Command lines, each without the leading `rewardkit judge <kind>`. */
  readonly examples: readonly string[];
}

/**
 * An LLM judge declared once: a source kind whose every param is documented (`.describe()`), so
 * that the spec source, the `rewardkit judge <kind>` command (one flag per param, with the same
 * name), the server (through the spec) and the docs all come from this one value.
 */
export interface JudgeKind<P extends z.ZodType = z.ZodType> extends SourceKind<P> {
  readonly judge: JudgeKindHelp;
  /**
   * The judge as a `PairwiseJudge`, for kinds that compare two responses: `rewardkit bench --judge`,
   * `judge pairwise --judge`, BRPO and group scoring take any kind that has one.
   */
  readonly pairwise?: (params: z.output<P>, services: SourceServices) => PairwiseJudge;
  /**
   * The rows the judge's benchmark writes and the lines `judge <kind> --bench-rows` prints: the
   * same check over the benchmark's rows, for kinds that have them.
   */
  // biome-ignore lint/suspicious/noExplicitAny: each format has its own row schema.
  readonly rows?: JudgeRowFormat<any>;
}

/** Declares a judge kind with its params type inferred from the schema. */
export function defineJudgeKind<P extends z.ZodType>(kind: JudgeKind<P>): JudgeKind<P> {
  return kind;
}

/** Whether a source kind is an LLM judge with a `rewardkit judge <kind>` command. */
export function isJudgeKind(kind: SourceKind): kind is JudgeKind {
  return (kind as Partial<JudgeKind>).judge !== undefined;
}

/** The judge kinds of a registry that can judge a pair, by kind name. */
export function pairwiseJudgeKinds(
  registry: ReadonlyMap<string, SourceKind>,
): ReadonlyMap<string, JudgeKind & Required<Pick<JudgeKind, 'pairwise'>>> {
  return new Map(
    [...registry.values()]
      .filter(
        (kind): kind is JudgeKind & Required<Pick<JudgeKind, 'pairwise'>> =>
          isJudgeKind(kind) && kind.pairwise !== undefined,
      )
      .map((kind) => [kind.kind, kind]),
  );
}
