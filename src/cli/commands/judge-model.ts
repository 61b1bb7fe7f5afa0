import type { Command } from 'commander';
import { RewardKitError } from '../../core/index.js';
import type { ChatModel } from '../../llm/index.js';
import type { SourceServices } from '../../spec/index.js';
import { addBreakerOption, type BreakerFlags, breakerGuard } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { loadConfiguredModels, pickModel, requireModelsReady } from '../models-location.js';
import { parseDuration } from '../parse-duration.js';
import { openStoreFromFlag, STORE_FLAG_HELP } from '../store-location.js';

/** The flags naming a judge command's model and its response cache. */
export interface JudgeModelFlags extends Partial<BreakerFlags> {
  model: string;
  models?: string;
  store?: string;
  cache: boolean;
  cacheTtl?: number;
}

/** The part of `--help` both judge commands share. */
export const JUDGE_CACHE_HELP = `Responses are cached in the store, as for \`rewardkit score\`: the same request again (a rerun
with --no-resume, the same rows in another file) is answered from it at no cost and counted in
"usage.cache_hits"; --no-cache calls the model anyway, --cache-ttl 7d asks again once an answer is
older than that, --store none keeps no store.`;

/**
 * The `--help` part of a command that keeps its run in the store (`bench`, `judge pairwise`, a
 * judge's row format), `kind` being what `runs list` calls it.
 */
export const storedRunHelp = (
  kind: string,
): string => `The run is kept in the store with every line as a result (judgments, calls and texts), as
\`rewardkit score\` keeps its runs: \`rewardkit runs list\` and \`rewardkit view\` show it (kind ${kind}). A rerun
with the same output resumes the same run; Ctrl-C leaves it "interrupted"; --store none keeps none.`;

/** Adds -m, --models, --store, --no-cache and --cache-ttl to a judge command that stores its run. */
export function addJudgeModelOptions(command: Command): Command {
  return addResponseCacheOptions(
    command
      .requiredOption('-m, --model <name>', 'the judge: a model name from the models file')
      .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)'),
    { storesRun: true },
  );
}

/**
 * Adds --store, --no-cache and --cache-ttl: where judge answers are cached, and for how long (and,
 * with `storesRun`, where the command's run is kept); and --max-consecutive-failures, which every
 * command that calls models takes.
 */
export function addResponseCacheOptions(command: Command, options: { storesRun?: boolean } = {}): Command {
  const store =
    options.storesRun === true ? 'keeps the run and caches judge responses' : 'caches judge responses';
  return addBreakerOption(command)
    .option('--store <path|url>', `the store that ${store}: ${STORE_FLAG_HELP}`)
    .option('--no-cache', 'call the model even for requests already answered in the store')
    .option(
      '--cache-ttl <duration>',
      'answers older than this (90s, 30m, 12h, 7d) are asked again (default: kept until deleted)',
      parseDuration('--cache-ttl'),
    );
}

/**
 * The judge model from the models file, answered from the store's response cache like `score`'s
 * judges are (a rerun costs no calls), unless `--no-cache` or `--store none`. `close` closes the store.
 */
export async function openJudgeModel(
  flags: JudgeModelFlags,
  state: CommandState,
  command = 'judge',
): Promise<{ model: ChatModel; close: () => Promise<void> }> {
  const model = pickModel(
    await loadConfiguredModels(flags.models, breakerGuard(flags, state)),
    flags.model,
    command,
  );
  await requireModelsReady([model]);
  const cache = await openResponseCache(flags);
  return { model: cache.cached(model), close: cache.close };
}

/**
 * The response cache of a judge command: the store named by --store (none with --no-cache);
 * `cached` answers a model's requests from it, `close` closes the store.
 */
export async function openResponseCache(
  flags: Pick<JudgeModelFlags, 'store' | 'cache' | 'cacheTtl'>,
): Promise<{ cached: (model: ChatModel) => ChatModel; close: () => Promise<void> }> {
  const { withResponseCache } = await import('../../llm/index.js');
  // Awaited: the store may open asynchronously (PostgreSQL).
  const store = flags.cache ? await openStoreFromFlag(flags.store) : undefined;
  return {
    cached: (model) =>
      store
        ? withResponseCache(model, store, flags.cacheTtl === undefined ? {} : { ttlMs: flags.cacheTtl })
        : model,
    close: async () => {
      await store?.close();
    },
  };
}

/**
 * What a judge kind's check needs from a judge command: every model the params name, picked from
 * the models file by name (an unknown name stops the run before any row) and answered from the
 * response cache; no code sandbox (judge commands run none). `close` closes the store.
 */
export async function openJudgeServices(
  flags: Pick<JudgeModelFlags, 'models' | 'store' | 'cache' | 'cacheTtl' | 'maxConsecutiveFailures'>,
  names: ReadonlyArray<string | undefined>,
  command: string,
  state: CommandState,
): Promise<{ services: SourceServices; close: () => Promise<void> }> {
  const configured = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
  const cache = await openResponseCache(flags);
  const models = new Map<string, ChatModel>();
  const services: SourceServices = {
    model: (name) => {
      const model = models.get(name) ?? cache.cached(pickModel(configured, name, command));
      models.set(name, model);
      return model;
    },
    codeSandbox: () => {
      throw new RewardKitError('RK_INTERNAL', `${command} runs no code`);
    },
  };
  for (const name of names) if (name !== undefined) services.model(name);
  await requireModelsReady(models.values());
  return { services, close: cache.close };
}
