import { RewardKitError } from '../core/index.js';
import type { ChatModel } from '../llm/index.js';
import type { BreakerGuard } from './backend-breaker.js';

/** The models a command may use, and where they came from (for messages). */
export interface ConfiguredModels {
  readonly models: Map<string, ChatModel>;
  readonly from: string;
}

/**
 * The models the CLI knows: the models file (`--models`, else `$REWARDKIT_MODELS`) and models
 * defined by `REWARDKIT_MODEL_<NAME>_*` variables. A name defined in both places is an error:
 * a judge uses exactly the model it is given, so which one was meant must not be guessed.
 * With a `guard`, every model is put behind one circuit breaker kept in the command's state
 * (none when its limit is 0); `serve` passes none: a server answers each request on its own.
 */
export async function loadConfiguredModels(
  flag: string | undefined,
  guard?: BreakerGuard,
): Promise<ConfiguredModels> {
  const { createCircuitBreaker, loadModelsFile, modelsFromEnv } = await import('../llm/index.js');
  const file = flag ?? process.env.REWARDKIT_MODELS;
  const fromFile = file ? loadModelsFile(file) : new Map<string, ChatModel>();
  const fromEnv = modelsFromEnv(process.env);
  for (const name of fromEnv.keys()) {
    if (fromFile.has(name)) {
      throw new RewardKitError(
        'RK_MODELS_INVALID',
        `model "${name}" is defined both in ${file} and by REWARDKIT_MODEL_${name.toUpperCase()}_* variables; remove one`,
      );
    }
  }
  const from = [file, fromEnv.size > 0 ? 'REWARDKIT_MODEL_* variables' : undefined]
    .filter(Boolean)
    .join(' and ');
  const models = new Map([...fromFile, ...fromEnv]);
  if (guard && guard.maxConsecutiveFailures > 0 && models.size > 0) {
    guard.state.breaker ??= createCircuitBreaker({ maxConsecutiveFailures: guard.maxConsecutiveFailures });
    const { middleware } = guard.state.breaker;
    for (const [name, model] of models) models.set(name, middleware(model));
  }
  return { models, from };
}

/** The model of that name, or an error saying how to configure one. */
export function pickModel(configured: ConfiguredModels, name: string, command: string): ChatModel {
  if (configured.models.size === 0) {
    throw new RewardKitError(
      'RK_USAGE',
      `${command} needs a models file: pass --models <file>, set REWARDKIT_MODELS, or define REWARDKIT_MODEL_<NAME>_BASE_URL and REWARDKIT_MODEL_<NAME>_MODEL`,
    );
  }
  const model = configured.models.get(name);
  if (!model) {
    throw new RewardKitError(
      'RK_UNKNOWN_MODEL',
      `no model named "${name}" in ${configured.from} (configured: ${[...configured.models.keys()].join(', ')})`,
    );
  }
  return model;
}

/**
 * Asks each model a command will use whether it can answer at all (`ChatModel.ready`: a local
 * model's package and file), before the first row: a missing part stops the command with one
 * message instead of failing every row alike.
 */
export async function requireModelsReady(models: Iterable<ChatModel | undefined>): Promise<void> {
  for (const model of new Set(models)) await model?.ready?.();
}
