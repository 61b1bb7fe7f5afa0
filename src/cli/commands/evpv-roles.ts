import type { Command } from 'commander';
import { RewardKitError } from '../../core/index.js';
import type { ChatModel } from '../../llm/index.js';
import { type BreakerFlags, breakerGuard } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { loadConfiguredModels, pickModel, requireModelsReady } from '../models-location.js';
import { addResponseCacheOptions, openResponseCache } from './judge-model.js';

/** The flags naming the EVPV roles' models and their response cache. */
export interface EvpvRoleFlags extends Partial<BreakerFlags> {
  model?: string;
  extractor?: string;
  auditor?: string;
  stepJudge?: string;
  models?: string;
  store?: string;
  cache: boolean;
  cacheTtl?: number;
}

/** Adds --models, -m and the per-role overrides, plus the response-cache flags. */
export function addEvpvRoleOptions(command: Command): Command {
  return addResponseCacheOptions(
    command
      .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
      .option('-m, --model <name>', 'the model for every role not named by the flags below')
      .option('--extractor <name>', 'the vision model that describes each image (default: --model)')
      .option('--auditor <name>', 'the model that audits visual premises (default: --model)')
      .option('--step-judge <name>', 'the model that scores each step +1/-1 (default: --model)'),
  );
}

export type EvpvRole = 'extractor' | 'auditor' | 'stepJudge';

const FLAG: Record<EvpvRole, string> = {
  extractor: '--extractor',
  auditor: '--auditor',
  stepJudge: '--step-judge',
};

/**
 * The models of the roles asked for, answered from the store's response cache (one store for all
 * roles) unless --no-cache or --store none. `close` closes the store.
 */
export async function openEvpvRoles(
  flags: EvpvRoleFlags,
  roles: readonly EvpvRole[],
  command: string,
  state: CommandState,
): Promise<{ models: Partial<Record<EvpvRole, ChatModel>>; close: () => Promise<void> }> {
  const names = roles.map((role) => {
    const name = flags[role] ?? flags.model;
    if (name === undefined) {
      throw new RewardKitError(
        'RK_USAGE',
        `${command} needs a model for the ${role}: pass -m <name> or ${FLAG[role]} <name>`,
      );
    }
    return [role, name] as const;
  });
  const configured = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
  const picked = names.map(([role, name]) => [role, pickModel(configured, name, command)] as const);
  await requireModelsReady(picked.map(([, model]) => model));
  const { cached, close } = await openResponseCache(flags);
  return {
    models: Object.fromEntries(picked.map(([role, model]) => [role, cached(model)])),
    close,
  };
}
