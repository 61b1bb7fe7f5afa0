import { availableParallelism } from 'node:os';
import { Option } from 'commander';
import type { ChatModel } from '../llm/index.js';
import type { Evaluator, ResolvedSpec } from '../spec/index.js';
import { nonNegativeInt } from './number-flags.js';

/**
 * `--workers`, shared by `score` and `serve`, which use the threads differently: `score` hands
 * each thread whole chunks of the file to read, verify and serialize; `serve` only verification,
 * since every request arrives on the one event loop. Off by default: on the 2-core bench machine
 * the server's pool was slower than the main thread for the math preset (BENCHMARKS.md), and a
 * thread costs a start-up that a small file does not pay back.
 */
export const workersOption = (use: 'score' | 'serve') =>
  new Option(
    '--workers <n>',
    use === 'score'
      ? `worker threads that each read, verify and serialize chunks of the input, the main thread writing and storing what they return (this machine has ${availableParallelism()} cores; 0: all on the main thread; specs with judge models always run there, specs comparing a group's rollouts verify on the threads)`
      : `worker threads verifying samples off the main thread (this machine has ${availableParallelism()} cores; 0: on the main thread; specs with judge models always run there)`,
  )
    .argParser(nonNegativeInt('--workers'))
    .default(0);

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
  const { createEvaluatorPool } = await import('../evaluator-pool/index.js');
  await inProcess.close();
  return createEvaluatorPool({
    spec,
    workers: options.workers,
    allowUnsafeCode: options.allowUnsafeCode,
    needsGroups: inProcess.needsGroups,
  });
}
