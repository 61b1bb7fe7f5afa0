import { applyCalibration } from '../calibration/index.js';
import {
  type Evidence,
  errorMessage,
  failedResult,
  type JudgeCall,
  RewardKitError,
  type RewardResult,
  type Sample,
} from '../core/index.js';
import type { ChatModel } from '../llm/index.js';
import { type CodeSandbox, createCodeSandbox } from '../verify/code/index.js';
import { aggregateEvidence, sourceName } from './aggregate.js';
import { globMatcher } from './glob-matcher.js';
import { type LazyDeadline, withSharedDeadline } from './shared-deadline.js';
import { SourceFailedError } from './source-failed-error.js';
import type {
  GroupSourceCheck,
  GroupSourceFailure,
  SourceCheck,
  SourceContext,
  SourceOutcome,
  SourceServices,
} from './source-kind.js';
import { type SourceKindRegistry, sourceKinds } from './source-kinds.js';
import type { LeafSpec, ResolvedSpec, SourceConfig } from './spec-schema.js';

// The signal of a call that gave none: one shared instance instead of a controller per sample.
const NEVER_ABORTED = new AbortController().signal;

/** Scores samples with a resolved spec. Holds shared resources (the code sandbox) until closed. */
export interface Evaluator {
  readonly spec: ResolvedSpec;
  /** Some source compares the samples of a group: score groups with `evaluateGroup`. */
  readonly needsGroups: boolean;
  evaluate(sample: Sample, options?: { signal?: AbortSignal }): Promise<RewardResult>;
  /** Scores the samples of one group together; results in the order given. */
  evaluateGroup(samples: readonly Sample[], options?: { signal?: AbortSignal }): Promise<RewardResult[]>;
  close(): Promise<void>;
}

export interface EvaluatorOptions {
  readonly registry?: SourceKindRegistry;
  /** Builds the code sandbox on first use; defaults to the OS-isolated sandbox. */
  readonly codeSandbox?: () => CodeSandbox;
  /** Models that judge sources may name (see docs/llm.md for the models file). */
  readonly models?: ReadonlyMap<string, ChatModel>;
  /**
   * Keep every judge call (messages, raw output, parse) on its evidence as `calls` (default true).
   * False keeps only the usage totals: smaller results, nothing to inspect call by call.
   */
  readonly traces?: boolean;
}

type CompiledCheck = { readonly one: SourceCheck } | { readonly group: GroupSourceCheck };

interface CompiledLeaf {
  readonly spec: LeafSpec;
  readonly checks: readonly CompiledCheck[];
}

/** Compiles a resolved spec into an evaluator: each source's check is built once, here. */
export function createEvaluator(spec: ResolvedSpec, options: EvaluatorOptions = {}): Evaluator {
  const registry = options.registry ?? sourceKinds;
  const traces = options.traces ?? true;
  const compile = (leaf: LeafSpec): CompiledLeaf => ({
    spec: leaf,
    checks: leaf.sources.map((source): CompiledCheck => {
      const kind = registry.get(source.kind);
      if (!kind) throw new RewardKitError('RK_INTERNAL', `source kind "${source.kind}" is not registered`);
      if (typeof source.calibration === 'string')
        throw new RewardKitError(
          'RK_USAGE',
          `source "${sourceName(source)}": calibration "${source.calibration}" is a path; load the spec with loadSpec or parseSpec, which read the map`,
        );
      const group = kind.createGroup?.(source.params);
      return group ? { group } : { one: kind.create(source.params) };
    }),
  });
  const routes = spec.routes.map((route) => ({
    match: globMatcher(route.data_source),
    leaf: compile(route.spec),
  }));
  const fallback = spec.default ? compile(spec.default) : undefined;
  const leaves = [...routes.map((r) => r.leaf), ...(fallback ? [fallback] : [])];

  let sandbox: CodeSandbox | undefined;
  const services: SourceServices = {
    codeSandbox: () => {
      sandbox ??= (options.codeSandbox ?? (() => createCodeSandbox()))();
      return sandbox;
    },
    model(name) {
      const model = options.models?.get(name);
      if (!model) {
        const known = [...(options.models?.keys() ?? [])];
        throw new RewardKitError(
          'RK_UNKNOWN_MODEL',
          `no model named "${name}" is configured${known.length > 0 ? ` (configured: ${known.join(', ')})` : ' (pass --models <file>)'}`,
        );
      }
      return model;
    },
  };

  const route = (sample: Sample): CompiledLeaf | undefined => {
    if (sample.data_source !== undefined) {
      const hit = routes.find((r) => r.match(sample.data_source as string));
      if (hit) return hit.leaf;
    }
    return fallback;
  };

  const metaOf = (sample: Sample) => ({
    ...(sample.data_source !== undefined && { data_source: sample.data_source }),
    ...(sample.group !== undefined && { group: sample.group }),
  });

  const unrouted = (sample: Sample, started: number): RewardResult => {
    const known = spec.routes.flatMap((r) => r.data_source).join(', ');
    return failedResult(
      sample.id,
      [
        sample.data_source === undefined
          ? `sample has no data_source and spec "${spec.name}" has no default route (routes: ${known})`
          : `data_source "${sample.data_source}" matches no route of spec "${spec.name}" and there is no default (routes: ${known})`,
      ],
      metaOf(sample),
      performance.now() - started,
    );
  };

  // A routed spec's default branch is where a dataset nobody routed lands: said on the result.
  const routedDefault = (result: RewardResult): RewardResult => ({
    ...result,
    routed_default: true,
    warnings: [
      `${result.data_source === undefined ? 'the sample has no data_source' : `data_source "${result.data_source}" matches no route`}: scored by the default route of spec "${spec.name}"${spec.default ? ` (${spec.default.name})` : ''}`,
      ...result.warnings,
    ],
  });

  /** Scores the samples routed to one leaf: per-sample sources each, group sources once. */
  const evaluateLeaf = async (
    leaf: CompiledLeaf,
    samples: readonly Sample[],
    context: SourceContext,
    started: number,
  ): Promise<RewardResult[]> => {
    const perSource = await Promise.all(
      leaf.spec.sources.map((source, i) => {
        const check = leaf.checks[i] as CompiledCheck;
        return 'group' in check
          ? runGroupSource(source, check.group, samples, context, traces)
          : Promise.all(samples.map((sample) => runSource(source, check.one, sample, context, traces)));
      }),
    );
    return samples.map((sample, s) => {
      const runs = perSource.map((runsOfSource) => runsOfSource[s] as SourceRun);
      const evidence = runs.map((r) => r.evidence);
      const outcome = aggregateEvidence(leaf.spec, evidence);
      return {
        spec: 'rk/v1',
        id: sample.id,
        status: outcome.reward === null ? 'failed' : 'ok',
        reward: outcome.reward,
        components: outcome.components,
        evidence,
        errors: outcome.errors,
        warnings: [...runs.flatMap((r) => r.warnings), ...outcome.warnings],
        ...metaOf(sample),
        timings: { total_ms: performance.now() - started },
      };
    });
  };

  const evaluateGroup: Evaluator['evaluateGroup'] = async (samples, evaluateOptions = {}) => {
    const started = performance.now();
    const context = { services, signal: evaluateOptions.signal ?? NEVER_ABORTED };
    const results = new Array<RewardResult>(samples.length);
    const byLeaf = new Map<CompiledLeaf, number[]>();
    samples.forEach((sample, i) => {
      const leaf = route(sample);
      if (!leaf) {
        results[i] = unrouted(sample, started);
        return;
      }
      byLeaf.set(leaf, [...(byLeaf.get(leaf) ?? []), i]);
    });
    await Promise.all(
      [...byLeaf].map(async ([leaf, indexes]) => {
        const scored = await evaluateLeaf(
          leaf,
          indexes.map((i) => samples[i] as Sample),
          context,
          started,
        );
        indexes.forEach((i, k) => {
          const result = scored[k] as RewardResult;
          results[i] = leaf === fallback && routes.length > 0 ? routedDefault(result) : result;
        });
      }),
    );
    return results;
  };

  return {
    spec,
    needsGroups: leaves.some((leaf) => leaf.checks.some((check) => 'group' in check)),
    async evaluate(sample, evaluateOptions) {
      return (await evaluateGroup([sample], evaluateOptions))[0] as RewardResult;
    },
    evaluateGroup,
    async close() {
      await sandbox?.close();
      sandbox = undefined;
    },
  };
}

interface SourceRun {
  evidence: Evidence;
  warnings: string[];
}

/**
 * A source's context under its time budget: the signal is the shared deadline's, joined when a
 * source first reads it. A class, since an object literal with a getter has its accessor defined
 * at run time on every call (one per sample and source; see LazySignal in shared-deadline.ts).
 */
class BudgetedContext implements SourceContext {
  constructor(
    readonly services: SourceServices,
    private readonly deadline: LazyDeadline,
  ) {}
  get signal(): AbortSignal {
    return this.deadline.signal;
  }
}

/** Runs `work` under the source's time budget and the caller's abort signal. */
function withSourceBudget<T>(
  source: SourceConfig,
  context: SourceContext,
  work: (context: SourceContext) => T | Promise<T>,
): T | Promise<T> {
  return withSharedDeadline(context.signal, source.timeout_ms, (deadline) =>
    work(new BudgetedContext(context.services, deadline)),
  );
}

/** The calls an evidence keeps: none when traces are off or the source made none. */
const keptCalls = (calls: readonly JudgeCall[] | undefined, traces: boolean) =>
  traces && calls !== undefined && calls.length > 0 ? { calls: [...calls] } : {};

const scoredEvidence = (
  source: SourceConfig,
  outcome: SourceOutcome,
  started: number,
  traces: boolean,
): SourceRun => {
  const name = sourceName(source);
  // A NaN or infinite score would become a null reward in JSON on a row marked ok: fail the source.
  if (!Number.isFinite(outcome.score)) {
    return errorEvidence(
      source,
      {
        error: `the source returned a score that is not a finite number (${outcome.score})`,
        ...(outcome.detail !== undefined && { detail: outcome.detail }),
        ...(outcome.usage !== undefined && { usage: outcome.usage }),
        ...(outcome.calls !== undefined && { calls: outcome.calls }),
      },
      started,
      traces,
    );
  }
  const calibrated =
    typeof source.calibration === 'object'
      ? { score: applyCalibration(source.calibration, outcome.score), raw_score: outcome.score }
      : { score: outcome.score };
  return {
    evidence: {
      source: name,
      kind: source.kind,
      ...calibrated,
      verdict: outcome.verdict,
      detail: outcome.detail,
      veto: source.veto !== false && outcome.verdict === 'fail',
      invalid: false,
      ...(outcome.reason !== undefined && { reason: outcome.reason }),
      ...(outcome.usage !== undefined && { usage: outcome.usage }),
      ...keptCalls(outcome.calls, traces),
      elapsed_ms: performance.now() - started,
    },
    warnings: (outcome.warnings ?? []).map((w) => `${name}: ${w}`),
  };
};

const errorEvidence = (
  source: SourceConfig,
  failure: GroupSourceFailure,
  started: number,
  traces: boolean,
): SourceRun => ({
  evidence: {
    source: sourceName(source),
    kind: source.kind,
    verdict: 'error',
    ...(failure.detail !== undefined && { detail: failure.detail }),
    veto: false,
    invalid: true,
    reason: failure.error,
    ...(failure.usage !== undefined && { usage: failure.usage }),
    ...keptCalls(failure.calls, traces),
    elapsed_ms: performance.now() - started,
  },
  warnings: [],
});

const failureOf = (error: unknown): GroupSourceFailure => ({
  error: errorMessage(error),
  ...(error instanceof SourceFailedError && error.trace),
});

/** Runs one source under its time budget; an exception or timeout becomes `error` evidence, never a 0. */
async function runSource(
  source: SourceConfig,
  check: SourceCheck,
  sample: Sample,
  context: SourceContext,
  traces: boolean,
): Promise<SourceRun> {
  const started = performance.now();
  try {
    const outcome = await withSourceBudget(source, context, (ctx) => check(sample, ctx));
    return scoredEvidence(source, outcome, started, traces);
  } catch (error) {
    return errorEvidence(source, failureOf(error), started, traces);
  }
}

/** Runs a group source once for the samples; a throw or timeout fails it for every sample. */
async function runGroupSource(
  source: SourceConfig,
  check: GroupSourceCheck,
  samples: readonly Sample[],
  context: SourceContext,
  traces: boolean,
): Promise<SourceRun[]> {
  const started = performance.now();
  try {
    const outcomes = await withSourceBudget(source, context, (ctx) => check(samples, ctx));
    return outcomes.map((outcome) =>
      'error' in outcome
        ? errorEvidence(source, outcome, started, traces)
        : scoredEvidence(source, outcome, started, traces),
    );
  } catch (error) {
    const failure = failureOf(error);
    return samples.map(() => errorEvidence(source, failure, started, traces));
  }
}

/**
 * What the spec's sources say about what their params name (`SourceKind.warnings`: a rubric file
 * with some bad entries), each once, prefixed with the source's name: for the command to print
 * before scoring. Kept off the evaluator, which every worker thread and server process compiles.
 */
export function specWarnings(spec: ResolvedSpec, registry: SourceKindRegistry = sourceKinds): string[] {
  const leaves = [...spec.routes.map((route) => route.spec), ...(spec.default ? [spec.default] : [])];
  const warnings = leaves.flatMap((leaf) =>
    leaf.sources.flatMap((source) =>
      (registry.get(source.kind)?.warnings?.(source.params) ?? []).map(
        (warning) => `${sourceName(source)}: ${warning}`,
      ),
    ),
  );
  return [...new Set(warnings)];
}
