import type { RoleCall } from '../../judges/index.js';
import { promptNonce, untrustedBlock } from '../../judges/index.js';
import type { ChatModel } from '../../llm/index.js';
import { reduceChunks } from '../reduce-chunks.js';
import type { SkillFiles } from '../skill-files.js';
import type { AnalysisRecord } from './analysis-record.js';
import { patchProposerRole } from './patch-roles.js';
import { renderSkillFiles } from './render-skill-files.js';
import { editOf, type SupportedPatch, supportOf } from './supported-patch.js';

export interface ProposePatchesOptions {
  model: ChatModel;
  /** Records per proposal (default 5), chunked as `reduceChunks` does. */
  batchSize?: number;
  /** Proposals in flight at most (default 8). */
  concurrency?: number;
  seed?: number;
  reasks?: number;
}

export interface ProposedPatches {
  readonly patches: SupportedPatch[];
  /** Batches whose proposal never parsed (malformed JSON after re-asks, a failed backend): dropped, counted. */
  readonly failed: number;
  readonly failures: string[];
  readonly calls: RoleCall[];
}

/** The lessons of a batch of records, by instance, as the proposer reads them. */
export function renderLessons(records: readonly AnalysisRecord[]): string {
  const nonce = promptNonce(...records.map((r) => JSON.stringify(r.items)));
  return records
    .map((r) => {
      const lessons = r.items
        .map((l) => `- [${l.type}] ${l.title}: ${l.description}\n${l.content}`)
        .join('\n');
      return `Instance ${r.instance} (${r.pass ? 'passed' : 'failed'}${r.gate === 'ungated' ? ', ungated' : ''}):\n${untrustedBlock('lessons', lessons, nonce)}`;
    })
    .join('\n\n');
}

/**
 * Patch proposal: the records with lessons, in batches, each batch one proposer call that sees
 * the frozen skill. An edit's support is the instances it cites that are in its batch; an edit
 * citing none of them is credited to the whole batch.
 */
export async function proposePatches(
  records: readonly AnalysisRecord[],
  files: SkillFiles,
  options: ProposePatchesOptions,
): Promise<ProposedPatches> {
  const withLessons = records.filter((r) => r.status === 'ok' && r.items.length > 0);
  const batches = reduceChunks(withLessons, options.batchSize ?? 5);
  const skill = renderSkillFiles(files);
  const results: (SupportedPatch | string)[] = new Array(batches.length);
  const calls: RoleCall[] = [];
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const index = next++;
      const batch = batches[index] as AnalysisRecord[];
      const outcome = await patchProposerRole(
        { skill, lessons: renderLessons(batch) },
        {
          model: options.model,
          ...(options.seed !== undefined && { seed: options.seed }),
          ...(options.reasks !== undefined && { reasks: options.reasks }),
        },
      );
      calls.push(...outcome.calls);
      if (outcome.status !== 'ok') {
        results[index] = `batch ${index + 1}: ${outcome.reason}`;
        continue;
      }
      const ids = new Set(batch.map((r) => r.instance));
      results[index] = {
        reasoning: outcome.value.reasoning,
        changelog: outcome.value.changelog,
        edits: outcome.value.edits.map((reply) => {
          const cited = reply.supports.filter((id) => ids.has(id));
          return { edit: editOf(reply), support: supportOf(cited.length > 0 ? cited : ids) };
        }),
      };
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.concurrency ?? 8, batches.length) }, worker));
  const failures = results.filter((r): r is string => typeof r === 'string');
  return {
    patches: results.filter((r): r is SupportedPatch => typeof r !== 'string'),
    failed: failures.length,
    failures,
    calls,
  };
}
