import type { CallTrace } from '../../llm/index.js';
import { type EpisodeResult, runSkillRmEpisode, type SkillRmRoute } from './run-skill-rm-episode.js';
import { DEFAULT_SKILL_RM_CAPS } from './skill-rm-caps.js';
import type { SkillRmOptions } from './skill-rm-options.js';
import type { SkillRmSample } from './skill-rm-sample.js';

/** A pointwise Skill-RM result: always a score, with `invalid` saying whether it is the failure score. */
export interface SkillRmPointwiseResult {
  /** In [0, 1]; `failureScore` when `invalid`. */
  readonly score: number;
  /** The cascade gave no score: `score` is the configured failure score (recorded, never hidden). */
  readonly invalid: boolean;
  readonly reason?: string;
  readonly route?: SkillRmRoute;
  /** `score`: the judge's own (clamped); `checklist`: satisfied / total. */
  readonly from?: 'score' | 'checklist';
  readonly calls: CallTrace[];
  readonly trace: EpisodeResult['trace'];
  readonly warnings: string[];
}

/**
 * Skill-RM on one response, for RL: the judge's score in [0, 1] (clamped, recorded as a
 * warning), or satisfied / total from its checklist count when it gave no score; when the whole
 * cascade fails, `failureScore` (default 0.5) with `invalid: true` and the reason.
 */
export async function judgeSkillRmPointwise(
  sample: SkillRmSample & { readonly response: string },
  options: SkillRmOptions & { failureScore?: number; signal?: AbortSignal },
): Promise<SkillRmPointwiseResult> {
  const episode = await runSkillRmEpisode(
    sample,
    { response: sample.response },
    {
      model: options.model,
      skill: options.skill,
      runtime: options.runtime,
      caps: { ...DEFAULT_SKILL_RM_CAPS, ...options.caps },
      benchmarkVisible: options.benchmarkVisible ?? false,
      reasks: options.reasks ?? 2,
      temperature: options.temperature,
      signal: options.signal,
    },
  );
  const { calls, trace, warnings } = episode;
  if (episode.status === 'invalid') {
    return {
      score: options.failureScore ?? 0.5,
      invalid: true,
      reason: episode.reason,
      calls,
      trace,
      warnings,
    };
  }
  const answer = episode.answer;
  if (answer.mode !== 'pointwise') throw new Error('a pointwise episode answered with a verdict');
  return {
    score: answer.score,
    invalid: false,
    route: episode.route,
    from: answer.from,
    ...(answer.reason !== undefined && { reason: answer.reason }),
    calls,
    trace,
    warnings,
  };
}
