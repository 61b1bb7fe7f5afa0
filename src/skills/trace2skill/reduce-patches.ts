import type { RoleCall } from '../../judges/index.js';
import { promptNonce, untrustedBlock } from '../../judges/index.js';
import type { ChatModel } from '../../llm/index.js';
import { reduceChunks } from '../reduce-chunks.js';
import type { SkillFiles } from '../skill-files.js';
import { patchMergerRole } from './patch-roles.js';
import { renderSkillFiles } from './render-skill-files.js';
import { editOf, type SupportedEdit, type SupportedPatch, supportOf } from './supported-patch.js';

export interface ReducePatchesOptions {
  model: ChatModel;
  /** Patches per merge (default 5), chunked by `reduceChunks`. */
  batchSize?: number;
  /** Merge levels at most (default 5); what is left after them gets one forced merge. */
  maxLevels?: number;
  /** Merges in flight at most (default 8). */
  concurrency?: number;
  seed?: number;
  reasks?: number;
}

export interface ReducedPatches {
  /** The one merged patch; undefined when there was nothing to merge. */
  readonly patch: SupportedPatch | undefined;
  readonly levels: number;
  /** Merge calls that gave a patch. */
  readonly merges: number;
  /** Merge calls that failed: their inputs were passed through to the next level. */
  readonly failedMerges: number;
  readonly failures: string[];
  /** Whether leftover patches needed the forced merge, and whether it failed (the edits were then concatenated in code). */
  readonly forcedMerge: boolean;
  readonly forcedMergeFailed: boolean;
  /** Edits past the input count a merge emitted: cut. */
  readonly truncatedEdits: number;
  /** Merged edits that cited no input edit: dropped (a merge does not invent). */
  readonly unsupportedEdits: number;
  readonly calls: RoleCall[];
}

/**
 * The patches of a merge as the merger reads them: every edit with its id (`P1.E2`) and its
 * prevalence — how many trajectories support it, counted in code from the records.
 */
export function renderPatchesForMerge(patches: readonly SupportedPatch[]): string {
  const nonce = promptNonce(...patches.map((p) => JSON.stringify(p)));
  return patches
    .map((patch, p) => {
      const edits = patch.edits
        .map(
          (e, j) =>
            `P${p + 1}.E${j + 1} (prevalence ${e.support.length}: ${e.support.join(', ')})\n${JSON.stringify(e.edit)}`,
        )
        .join('\n');
      const body = `reasoning: ${patch.reasoning}\nchangelog: ${patch.changelog}\nedits:\n${edits}`;
      return `Patch P${p + 1}:\n${untrustedBlock('patch', body, nonce)}`;
    })
    .join('\n\n');
}

/**
 * The hierarchical REDUCE: patches in chunks of the batch size, each chunk merged into one, level
 * after level (at most `maxLevels`) until one is left; a failed merge passes its inputs through;
 * what is left after the last level gets one forced merge. A merge never emits more edits than its
 * inputs (the rest are cut and counted) and each merged edit's support is the union of the
 * inputs it cites.
 */
export async function reducePatches(
  patches: readonly SupportedPatch[],
  files: SkillFiles,
  options: ReducePatchesOptions,
): Promise<ReducedPatches> {
  const skill = renderSkillFiles(files);
  const calls: RoleCall[] = [];
  const failures: string[] = [];
  let merges = 0;
  let failedMerges = 0;
  let truncatedEdits = 0;
  let unsupportedEdits = 0;

  const merge = async (
    group: readonly SupportedPatch[],
    forced: boolean,
  ): Promise<SupportedPatch | string> => {
    const outcome = await patchMergerRole(
      { forced, skill, patches: renderPatchesForMerge(group) },
      {
        model: options.model,
        ...(options.seed !== undefined && { seed: options.seed }),
        ...(options.reasks !== undefined && { reasks: options.reasks }),
      },
    );
    calls.push(...outcome.calls);
    if (outcome.status !== 'ok') return outcome.reason;
    const byId = new Map<string, SupportedEdit>();
    group.forEach((patch, p) => {
      patch.edits.forEach((edit, j) => {
        byId.set(`P${p + 1}.E${j + 1}`, edit);
      });
    });
    const edits: SupportedEdit[] = [];
    for (const reply of outcome.value.edits) {
      const sources = reply.merged_from.map((id) => byId.get(id.trim())).filter((e) => e !== undefined);
      if (sources.length === 0) {
        unsupportedEdits++;
        continue;
      }
      edits.push({ edit: editOf(reply), support: supportOf(sources.flatMap((s) => s.support)) });
    }
    const limit = byId.size;
    if (edits.length > limit) truncatedEdits += edits.length - limit;
    return {
      reasoning: outcome.value.reasoning,
      changelog: outcome.value.changelog,
      edits: edits.slice(0, limit),
    };
  };

  let current = [...patches];
  let levels = 0;
  while (current.length > 1 && levels < (options.maxLevels ?? 5)) {
    levels++;
    const chunks = reduceChunks(current, options.batchSize ?? 5);
    const merged: SupportedPatch[][] = new Array(chunks.length);
    let next = 0;
    const worker = async () => {
      while (next < chunks.length) {
        const index = next++;
        const chunk = chunks[index] as SupportedPatch[];
        if (chunk.length === 1) {
          merged[index] = chunk;
          continue;
        }
        const got = await merge(chunk, false);
        if (typeof got === 'string') {
          failedMerges++;
          failures.push(`level ${levels}, group ${index + 1}: ${got}`);
          merged[index] = chunk;
        } else {
          merges++;
          merged[index] = [got];
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, chunks.length) }, worker));
    const after = merged.flat();
    const progressed = after.length < current.length;
    current = after;
    if (!progressed) break;
  }
  let forcedMerge = false;
  let forcedMergeFailed = false;
  if (current.length > 1) {
    forcedMerge = true;
    const got = await merge(current, true);
    if (typeof got === 'string') {
      forcedMergeFailed = true;
      failedMerges++;
      failures.push(`forced merge: ${got}`);
      current = [concatenate(current)];
    } else {
      merges++;
      current = [got];
    }
  }
  return {
    patch: current[0],
    levels,
    merges,
    failedMerges,
    failures,
    forcedMerge,
    forcedMergeFailed,
    truncatedEdits,
    unsupportedEdits,
    calls,
  };
}

/** The patches one after another: what is left when even the forced merge fails. */
function concatenate(patches: readonly SupportedPatch[]): SupportedPatch {
  return {
    reasoning: patches.map((p) => p.reasoning).join('\n'),
    edits: patches.flatMap((p) => p.edits),
    changelog: patches.map((p) => p.changelog).join('\n'),
  };
}
