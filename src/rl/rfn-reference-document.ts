import { z } from 'zod';
import { RewardKitError } from '../core/index.js';
import type { GroupShapingContext } from './group-shaping.js';
import { readStateDocument, requireState } from './read-state-document.js';
import {
  type FitReferenceOptions,
  fitReferenceNormalization,
  type ReferenceStats,
  ReferenceStatsSchema,
} from './reference-frozen-normalization.js';
import type { StateAccess } from './state-access.js';

/** The frozen RFN statistics of a run, as stored: fitted once, never updated. */
export const RfnReferenceDocumentSchema = z.object({
  version: z.literal('rk-rfn-reference/v1'),
  stats: ReferenceStatsSchema,
  /** Reference rollouts the statistics were fitted on. */
  rollouts: z.number().int().positive(),
  fitted_at: z.string(),
});
export type RfnReferenceDocument = z.infer<typeof RfnReferenceDocumentSchema>;

export const rfnReferenceKey = (stateKey: string) => `rfn-reference/${stateKey}`;

/**
 * Fits the reference statistics from the frozen reference policy's rollouts (rows = rollouts,
 * columns = dimensions) and stores them. Refuses to overwrite a fitted document unless `replace`:
 * RFN's point is that the statistics never move during a run.
 */
export async function storeRfnReference(
  state: StateAccess,
  stateKey: string,
  referenceRewards: readonly (readonly number[])[],
  options: FitReferenceOptions & { replace?: boolean; now?: Date } = {},
): Promise<RfnReferenceDocument> {
  const key = rfnReferenceKey(stateKey);
  if (!options.replace && (await state.getState(key)) !== undefined) {
    throw new RewardKitError(
      'RK_USAGE',
      `"${key}" is already fitted; reference statistics are frozen for a run (pass --replace to refit, or use another --state-key)`,
    );
  }
  const document: RfnReferenceDocument = {
    version: 'rk-rfn-reference/v1',
    stats: fitReferenceNormalization(referenceRewards, options),
    rollouts: referenceRewards.length,
    fitted_at: (options.now ?? new Date()).toISOString(),
  };
  await state.putState(key, document);
  return document;
}

/** The statistics to normalize with: inline `reference` option first, else the run's fitted document. */
export async function loadRfnReference(
  inline: ReferenceStats | undefined,
  context: GroupShapingContext,
  method: string,
): Promise<ReferenceStats> {
  if (inline) return inline;
  const key = rfnReferenceKey(context.stateKey ?? 'default');
  const document = await readStateDocument(
    requireState(context.state, method),
    key,
    RfnReferenceDocumentSchema,
  );
  if (!document) {
    throw new RewardKitError(
      'RK_USAGE',
      `${method}: no reference statistics under "${key}"; fit them once with \`rewardkit advantages fit-reference --input ref.jsonl --state-key ${context.stateKey ?? 'default'}\` or pass the "reference" option`,
    );
  }
  return document.stats;
}
