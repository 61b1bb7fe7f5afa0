import { RewardKitError } from '../../core/index.js';
import type { ChatModel } from '../../llm/index.js';
import { loadConfiguredModels, pickModel } from '../models-location.js';
import { type JudgeModelFlags, openResponseCache } from './judge-model.js';

/** The flags naming the claim check's models: one for every role, or one per role. */
export interface ClaimRoleFlags extends Omit<JudgeModelFlags, 'model'> {
  model?: string;
  proposer?: string;
  checker?: string;
  matcher?: string;
}

export interface ClaimRoleModels {
  proposer: ChatModel;
  checker: ChatModel;
  matcher: ChatModel;
  close: () => Promise<void>;
}

/**
 * The Proposer, Checker and matcher models (the matcher defaults to --model, then the checker),
 * each answered from the store's response cache like the judges' unless --no-cache or --store none.
 */
export async function openClaimRoleModels(flags: ClaimRoleFlags, command: string): Promise<ClaimRoleModels> {
  const proposerName = flags.proposer ?? flags.model;
  const checkerName = flags.checker ?? flags.model;
  if (proposerName === undefined || checkerName === undefined) {
    throw new RewardKitError(
      'RK_USAGE',
      `${command} needs its models: --model <name> for every role, or --proposer <name> and --checker <name> (and --matcher for --mode claims)`,
    );
  }
  const configured = await loadConfiguredModels(flags.models);
  const pick = (name: string) => pickModel(configured, name, command);
  const raw = {
    proposer: pick(proposerName),
    checker: pick(checkerName),
    matcher: pick(flags.matcher ?? flags.model ?? checkerName),
  };
  const { cached, close } = await openResponseCache(flags);
  return {
    proposer: cached(raw.proposer),
    checker: cached(raw.checker),
    matcher: cached(raw.matcher),
    close,
  };
}
