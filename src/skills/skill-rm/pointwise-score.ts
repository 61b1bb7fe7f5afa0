import { jsonObjectsIn } from './parse-text-verdict.js';

/** What a pointwise judge answered: a score, a checklist count, or both. */
export interface PointwiseAnswer {
  readonly score?: number | undefined;
  readonly satisfied?: number | undefined;
  readonly total?: number | undefined;
}

/** The score in [0, 1] and where it came from. */
export interface PointwiseScore {
  readonly score: number;
  /** `score`: the judge's own; `checklist`: satisfied / total, because no score was given. */
  readonly from: 'score' | 'checklist';
  /** The number as given, when it was outside [0, 1] and clamped. */
  readonly clampedFrom?: number;
}

const clamp = (x: number): number => Math.min(1, Math.max(0, x));

/**
 * A pointwise answer as a score in [0, 1]: the score, clamped (1.7 → 1.0, recorded); with no
 * score, the share of the checklist satisfied (`{satisfied: 3, total: 4}` → 0.75); `undefined`
 * when neither is usable (the caller records it as invalid).
 */
export function pointwiseScore(answer: PointwiseAnswer): PointwiseScore | undefined {
  if (typeof answer.score === 'number' && Number.isFinite(answer.score)) {
    const score = clamp(answer.score);
    return score === answer.score
      ? { score, from: 'score' }
      : { score, from: 'score', clampedFrom: answer.score };
  }
  const { satisfied, total } = answer;
  if (typeof satisfied === 'number' && typeof total === 'number' && total > 0 && satisfied >= 0) {
    const share = satisfied / total;
    return share <= 1
      ? { score: share, from: 'checklist' }
      : { score: 1, from: 'checklist', clampedFrom: share };
  }
  return undefined;
}

/**
 * A pointwise answer read from free text: the last `Score: 0.75` line, or the last JSON object
 * with a `score` or `satisfied`/`total` fields, whichever comes later in the text.
 */
export function parseTextScore(text: string): PointwiseAnswer | undefined {
  const lines = [...text.matchAll(/\bscore\s*\**\s*:\s*\**\s*(-?\d+(?:\.\d+)?)/gi)].map((m) => ({
    answer: { score: Number(m[1]) } as PointwiseAnswer,
    end: (m.index ?? 0) + m[0].length,
  }));
  const objects = jsonObjectsIn(text).flatMap(({ value, end }) => {
    const answer: PointwiseAnswer = {
      ...(typeof value.score === 'number' && { score: value.score }),
      ...(typeof value.satisfied === 'number' && { satisfied: value.satisfied }),
      ...(typeof value.total === 'number' && { total: value.total }),
    };
    return pointwiseScore(answer) ? [{ answer, end }] : [];
  });
  const last = [...lines, ...objects].reduce<{ answer: PointwiseAnswer; end: number } | undefined>(
    (best, f) => (best === undefined || f.end >= best.end ? f : best),
    undefined,
  );
  return last?.answer;
}
