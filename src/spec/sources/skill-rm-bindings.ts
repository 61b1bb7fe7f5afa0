import { RewardKitError } from '../../core/index.js';
import type { PairwiseJudge } from '../../judges/index.js';
import type { SkillRmRuntime } from '../../skills/skill-rm/index.js';
import { isJudgeKind, type JudgeKind } from '../judge-kind.js';
import type { SourceKind, SourceServices } from '../source-kind.js';
import { codeSource } from './code-source.js';
import { genrmSource } from './genrm-source.js';
import { ifevalSource } from './ifeval-source.js';
import { jsonSource } from './json-source.js';
import { lengthSource } from './length-source.js';
import { mathSource } from './math-source.js';
import { openrsSource } from './openrs-source.js';
import { referenceSource } from './reference-source.js';
import { regexSource } from './regex-source.js';
import { tagsSource } from './tags-source.js';

/**
 * The source kinds a skill resource's `binding` runs — the same objects as the registry's (a test
 * checks it), imported here so that `skill_rm`, itself in the registry, needs no import cycle.
 */
export const bindingKinds: ReadonlyMap<string, SourceKind> = new Map(
  [
    mathSource,
    referenceSource,
    ifevalSource,
    codeSource,
    regexSource,
    jsonSource,
    tagsSource,
    lengthSource,
    genrmSource,
    openrsSource,
  ].map((kind) => [kind.kind, kind as unknown as SourceKind]),
);

/**
 * The params a binding runs with. A resource names only its binding, so each kind runs with its
 * defaults except the reference match, which checks containment: "The answer is 42." holds the
 * reference "42". Kinds that need params of their own (regex, tags, length) fail as tool errors.
 */
export const BINDING_PARAMS: Readonly<Record<string, Record<string, unknown>>> = {
  reference: { mode: 'contains' },
};

/**
 * Runtime resources bound to rewardkit itself: a verifier binding runs its source kind's check
 * on the sample, a judge binding runs its kind's `pairwise` facet with the judge's model.
 */
export function skillRmRuntime(
  services: SourceServices,
  judgeParams: { model: string; reasks: number },
): SkillRmRuntime {
  const checks = new Map<string, ReturnType<SourceKind['create']>>();
  const judges = new Map<string, PairwiseJudge>();
  const kindOf = (binding: string): SourceKind => {
    const kind = bindingKinds.get(binding);
    if (!kind) throw new RewardKitError('RK_SOURCE_FAILED', `no source kind "${binding}"`);
    return kind;
  };
  const parsed = (kind: SourceKind, params: Record<string, unknown>) => {
    const result = kind.params.safeParse(params);
    if (!result.success) {
      throw new RewardKitError(
        'RK_SOURCE_FAILED',
        `binding "${kind.kind}" needs params a resource cannot give: ${result.error.issues[0]?.message ?? 'invalid'}`,
      );
    }
    return result.data;
  };
  return {
    runVerifier: async (binding, sample, signal) => {
      let check = checks.get(binding);
      if (check === undefined) {
        const kind = kindOf(binding);
        check = kind.create(parsed(kind, BINDING_PARAMS[binding] ?? {}));
        checks.set(binding, check);
      }
      return await check(sample, { services, signal: signal ?? new AbortController().signal });
    },
    runJudge: async (binding, pair, signal) => {
      let judge = judges.get(binding);
      if (judge === undefined) {
        const kind = kindOf(binding);
        if (!isJudgeKind(kind) || kind.pairwise === undefined) {
          throw new RewardKitError('RK_SOURCE_FAILED', `"${binding}" is not a pairwise judge`);
        }
        const judgeKind = kind as JudgeKind & Required<Pick<JudgeKind, 'pairwise'>>;
        judge = judgeKind.pairwise(parsed(kind, { ...judgeParams, ...BINDING_PARAMS[binding] }), services);
        judges.set(binding, judge);
      }
      return await judge.judge(pair, { ...(signal !== undefined && { signal }) });
    },
    codeSandbox: () => services.codeSandbox(),
  };
}
