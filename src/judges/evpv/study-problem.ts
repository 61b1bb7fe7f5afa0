import { candidateCorrect } from './candidate-correct.js';
import type { StudyProblem } from './corruption-curve.js';
import type { EvpvProblem } from './evpv-problem.js';
import { parsePolicyOutput } from './policy-steps.js';
import type { VisualConstraints } from './visual-constraints.js';

/**
 * A problem made ready for the corruption study, or the reason it cannot be: every readable
 * candidate needs one recorded step score per step and a known correctness. A candidate whose
 * output cannot be read stays in its place, unscored (it is never selected).
 */
export function studyProblemOf(
  problem: EvpvProblem,
  constraints: VisualConstraints,
): { ok: true; value: StudyProblem } | { ok: false; error: string } {
  const candidates: Array<StudyProblem['candidates'][number]> = [];
  for (const [i, candidate] of problem.candidates.entries()) {
    const parsed = parsePolicyOutput(candidate.output);
    const final = parsed.ok ? parsed.value.finalAnswer : undefined;
    const correct = candidateCorrect(candidate.correct, final, problem.answer);
    if (correct === undefined) {
      return {
        ok: false,
        error: `candidates.${i}: correctness unknown: give "correct" or the problem's "answer"`,
      };
    }
    if (!parsed.ok) {
      candidates.push({ steps: null, stepScores: null, correct });
      continue;
    }
    const scores = candidate.step_scores;
    if (scores === undefined) {
      return {
        ok: false,
        error: `candidates.${i}.step_scores: missing (run \`rewardkit judge evpv --bench-rows\` to judge the steps)`,
      };
    }
    if (scores.length !== parsed.value.steps.length) {
      return {
        ok: false,
        error: `candidates.${i}.step_scores: ${scores.length} score(s) for ${parsed.value.steps.length} step(s)`,
      };
    }
    candidates.push({ steps: parsed.value.steps, stepScores: scores, correct });
  }
  return { ok: true, value: { id: problem.id, constraints, candidates } };
}
