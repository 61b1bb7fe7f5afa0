import { availableParallelism } from 'node:os';
import { InvalidArgumentError, Option } from 'commander';
import type { ChatModel } from '../llm/index.js';
import type { Evaluator, ResolvedSpec } from '../spec/index.js';

/** What `--workers auto` means for `serve`: the cores less the main thread, at most 8 (more gained nothing, BENCHMARKS.md). */
export const autoWorkers = (cores = availableParallelism()) => Math.min(8, Math.max(1, cores - 1));

/**
 * The fewest input rows for which `score --workers auto` starts threads. A thread's start-up
 * (about 0.35 s) is not paid back by a small file: short math rows paid it back from about 30,000
 * rows on 2 cores, sooner on more (BENCHMARKS.md, Scoring a large file).
 */
export const AUTO_WORKERS_MIN_ROWS = 30_000;

/**
 * Source kinds whose check costs a row no more than verifying a short math answer (a few µs):
 * under them a threaded `score` is bound by its main thread (reading, handing out chunks, writing
 * lines) or its store thread, never by verification, so threads past {@link LIGHT_SPEC_WORKERS}
 * add start-up and memory and take throughput away (BENCHMARKS.md, Scoring a large file).
 */
// countdown: 1.7 µs a row against math's 1.2 µs (100,000 rows each, 2026-11-27).
const LIGHT_KINDS: ReadonlySet<string> = new Set(['math', 'regex', 'length', 'json', 'tags', 'countdown']);
/**
 * `--workers auto` for a spec of light sources only: 2 threads (measured best on 16 cores), none
 * on 2 cores (the main thread alone was as fast with no store and 6% faster with SQLite, and
 * about 80 MB smaller).
 */
export const LIGHT_SPEC_WORKERS = 2;

/** Whether every source of every route of the spec is light ({@link LIGHT_KINDS}). */
export function isLightSpec(spec: ResolvedSpec): boolean {
  const leaves = [...spec.routes.map((route) => route.spec), ...(spec.default ? [spec.default] : [])];
  return leaves.every((leaf) => leaf.sources.every((source) => LIGHT_KINDS.has(source.kind)));
}

/**
 * `score`'s thread count: `auto` (the default) is {@link autoWorkers} — at most
 * {@link LIGHT_SPEC_WORKERS} for a spec of light sources, none on 2 cores — for an input of at least
 * {@link AUTO_WORKERS_MIN_ROWS} rows on a machine of two cores or more, else 0 (the main thread) —
 * also when the rows could not be counted (stdin, a mapping that expands rows). A number is taken
 * as given.
 */
export function scoreWorkers(
  flag: number | 'auto',
  rows: number | undefined,
  options: { readonly cores?: number; readonly light?: boolean } = {},
): number {
  if (flag !== 'auto') return flag;
  const { cores = availableParallelism(), light = false } = options;
  const enough = rows !== undefined && rows >= AUTO_WORKERS_MIN_ROWS;
  if (!enough || cores <= 1) return 0;
  if (!light) return autoWorkers(cores);
  // On two cores the main thread and the store's take both: a scoring thread only competes.
  return cores <= 2 ? 0 : Math.min(LIGHT_SPEC_WORKERS, autoWorkers(cores));
}

/**
 * `--workers`, shared by `score` and `serve`, which use the threads differently: `score` hands
 * each thread whole chunks of the file to read, verify and serialize; `serve` only verification,
 * since every request arrives on the one event loop. `score` defaults to `auto`, which starts
 * threads only for inputs large enough to pay back their start-up ({@link scoreWorkers}); `serve`
 * to 0, since its pool was slower than its main thread for the math preset (BENCHMARKS.md; `serve
 * --processes` scales instead).
 */
export const workersOption = (use: 'score' | 'serve') =>
  new Option(
    '--workers <n|auto>',
    use === 'score'
      ? `worker threads that each read, verify and serialize chunks of the input, the main thread writing what they return and a thread saving it to the store (auto: ${autoWorkers()} here, the cores less one, at most 8 — at most ${LIGHT_SPEC_WORKERS} for specs of math, regex, length, json and tags sources only, where more only cost memory, and none for those on 2 cores — for inputs of ${AUTO_WORKERS_MIN_ROWS.toLocaleString('en-US')} rows or more, else none; 0: all on the main thread; specs with judge models always run there, and specs comparing a group's rollouts only verify on the threads)`
      : `worker threads verifying samples off the main thread (auto: ${autoWorkers()} here; 0: on the main thread; specs with judge models always run there; for many cores see --processes)`,
  )
    .argParser((value): number | 'auto' => {
      if (value === 'auto') return use === 'score' ? 'auto' : autoWorkers();
      const n = Number(value);
      if (!Number.isInteger(n) || n < 0) {
        throw new InvalidArgumentError(`--workers expects an integer ≥ 0 or "auto", got "${value}".`);
      }
      return n;
    })
    .default(use === 'score' ? 'auto' : 0);

/** `--no-traces`, shared by `score`, `judge <kind>` and `serve`. */
export const TRACES_FLAG_HELP =
  "keep only each judgment's usage totals, not its calls' messages, raw outputs and parses (smaller outputs and store; nothing to inspect call by call)";

/**
 * The evaluator a scoring command uses: a pool of worker threads for CPU-bound verifiers, or the
 * main thread when asked (`--workers 0`) or when models are configured — judge sources wait on
 * the network rather than the CPU, and share the models' rate limits and the store's response
 * cache, which live on the main thread.
 */
export async function createScoringEvaluator(
  spec: ResolvedSpec,
  options: {
    readonly workers: number;
    readonly models: ReadonlyMap<string, ChatModel>;
    readonly allowUnsafeCode: boolean;
    /** Keep every judge call on its evidence (default true). */
    readonly traces?: boolean;
    /**
     * The caller scores on worker threads of its own when the spec compares no groups (`score
     * --workers`): the main thread's evaluator is then the in-process one, and the pool only
     * serves specs that compare a group's rollouts.
     */
    readonly ownWorkers?: boolean;
  },
): Promise<Evaluator> {
  const { createEvaluator } = await import('../spec/index.js');
  const { createCodeSandbox } = await import('../verify/code/index.js');
  const inProcess = createEvaluator(spec, {
    codeSandbox: () => createCodeSandbox({ allowUnsafeLocal: options.allowUnsafeCode }),
    models: options.models,
    ...(options.traces !== undefined && { traces: options.traces }),
  });
  if (options.workers === 0 || options.models.size > 0) return inProcess;
  if (options.ownWorkers && !inProcess.needsGroups) return inProcess;
  const { createEvaluatorPool } = await import('../evaluator-pool/index.js');
  await inProcess.close();
  return createEvaluatorPool({
    spec,
    workers: options.workers,
    allowUnsafeCode: options.allowUnsafeCode,
    needsGroups: inProcess.needsGroups,
  });
}
