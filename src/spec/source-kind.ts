import type { z } from 'zod';
import type { JudgeCall, LlmUsage, Sample } from '../core/index.js';
import type { ChatModel } from '../llm/index.js';
import type { CodeSandbox } from '../verify/code/index.js';

/** What a source found; throwing instead means the check could not be carried out. */
export interface SourceOutcome {
  /** Score in the source's documented range (most kinds: [0, 1]). */
  readonly score: number;
  readonly verdict: 'pass' | 'fail' | 'abstain';
  readonly detail?: unknown;
  readonly reason?: string;
  readonly warnings?: readonly string[];
  /** What the source's LLM calls cost (judge sources). */
  readonly usage?: LlmUsage;
  /** The source's LLM calls themselves (`judgeCallsOf(calls)`): kept as `Evidence.calls`. */
  readonly calls?: readonly JudgeCall[];
}

/** Shared, lazily created resources a source may need. */
export interface SourceServices {
  /** The code sandbox, created on first use and closed with the evaluator. */
  codeSandbox(): CodeSandbox;
  /** The configured model of that name; an unknown name is an error, never a substitute model. */
  model(name: string): ChatModel;
}

export interface SourceContext {
  readonly services: SourceServices;
  readonly signal: AbortSignal;
}

/** A compiled source: one check applied to one sample. */
export type SourceCheck = (sample: Sample, context: SourceContext) => SourceOutcome | Promise<SourceOutcome>;

/** One sample's share of a group check that could not score it, with the trace worth keeping. */
export interface GroupSourceFailure {
  readonly error: string;
  readonly detail?: unknown;
  readonly usage?: LlmUsage;
  readonly calls?: readonly JudgeCall[];
}

/**
 * A compiled source that needs the whole group at once (pairwise judges comparing the rollouts of
 * one prompt): one outcome per sample, in the order given.
 */
export type GroupSourceCheck = (
  samples: readonly Sample[],
  context: SourceContext,
) => Promise<ReadonlyArray<SourceOutcome | GroupSourceFailure>>;

/**
 * A kind of evidence source. Adding a kind to rewardkit is writing one of these and listing it
 * in `source-kinds.ts`; the spec validates `params` with the kind's schema.
 */
export interface SourceKind<P extends z.ZodType = z.ZodType> {
  readonly kind: string;
  /** One line for `rewardkit presets` and the docs. */
  readonly description: string;
  readonly params: P;
  create(params: z.output<P>): SourceCheck;
  /** The group check, for kinds whose params can ask to compare within a group; else undefined. */
  createGroup?(params: z.output<P>): GroupSourceCheck | undefined;
  /**
   * Problems in what the params name that do not stop the check (a rubric file with some bad
   * entries): every command that compiles the spec says them once on stderr before scoring.
   */
  warnings?(params: z.output<P>): readonly string[];
  /**
   * Files the params name, read when the spec is parsed with paths relative to the spec's folder
   * (`base`), so that a bad file is a spec error at its param and the resolved (stored) spec
   * carries the contents: the params with the files read in, or the problems by param.
   */
  readFiles?(
    params: z.output<P>,
    base: string,
  ): { params: z.output<P> } | { problems: readonly { param: string; message: string }[] };
  /**
   * The sources this one runs inside itself (a panel's judges), for what is read off each
   * source's params before scoring, such as the models a spec needs.
   */
  inner?(params: z.output<P>): readonly { readonly kind: string; readonly params: Record<string, unknown> }[];
}

/** Declares a kind with its params type inferred from the schema. */
export function defineSourceKind<P extends z.ZodType>(kind: SourceKind<P>): SourceKind<P> {
  return kind;
}
