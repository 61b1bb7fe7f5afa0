import type { CallTrace } from '../../llm/index.js';
import { candidateCorrect } from './candidate-correct.js';
import { EVPV_AGGREGATORS, type EvpvAggregator } from './evpv-aggregators.js';
import { type LoadedImage, loadEvpvImage } from './evpv-image.js';
import type { EvpvProblem } from './evpv-problem.js';
import type { SharedConstraintExtraction } from './extract-constraints.js';
import { type GatedCandidate, gateCandidate } from './gated-candidate.js';
import { type PolicyStep, parsePolicyOutput, visualChecklist } from './policy-steps.js';
import type { PremiseAudit, PremiseAuditor } from './premise-audit.js';
import type { StepJudging } from './step-judge.js';
import type { VisualConstraints } from './visual-constraints.js';

/** The three LLM roles (or stand-ins), passed in so the pipeline is testable without a network. */
export interface EvpvRoles {
  readonly extract: (input: { question: string; image: LoadedImage }) => Promise<SharedConstraintExtraction>;
  readonly audit: PremiseAuditor;
  readonly judgeSteps: (input: { question: string; steps: readonly PolicyStep[] }) => Promise<StepJudging>;
}

export type ScoredEvpvCandidate =
  | ({
      readonly index: number;
      readonly status: 'ok';
      readonly output: EvpvProblem['candidates'][number]['output'];
      readonly final_answer?: string;
      readonly correct?: boolean;
      readonly checklist: string[];
      readonly audit: Omit<PremiseAudit, 'calls'>;
      readonly step_scores: Array<1 | -1>;
      readonly step_judgments: StepJudging['judgments'];
      /** Set when the step judge's reply was never readable: every step is then −1 (the paper's convention). */
      readonly steps_invalid?: NonNullable<StepJudging['invalid']>;
    } & GatedCandidate)
  /** The output could not be read into steps: never scored, never selected. */
  | { readonly index: number; readonly status: 'failed'; readonly output: unknown; readonly error: string };

export type ScoredEvpvProblem =
  | {
      readonly status: 'ok';
      readonly constraints: VisualConstraints;
      readonly extraction: { source: 'model' | 'symbolic' | 'given'; reused?: true };
      readonly candidates: ScoredEvpvCandidate[];
      /** The index each aggregator selects (highest gated score, first of any tie); absent when none is scorable. */
      readonly selected: Partial<Record<EvpvAggregator, number>>;
      readonly calls: CallTrace[];
    }
  /** The image could not be read, or its description never came back readably: nothing was judged. */
  | {
      readonly status: 'failed';
      readonly error: string;
      readonly raw?: string | null;
      readonly calls: CallTrace[];
    };

function selection(candidates: readonly ScoredEvpvCandidate[]): Partial<Record<EvpvAggregator, number>> {
  const out: Partial<Record<EvpvAggregator, number>> = {};
  for (const aggregator of EVPV_AGGREGATORS) {
    let best: { index: number; score: number } | undefined;
    for (const c of candidates) {
      if (c.status !== 'ok') continue;
      const score = c.scores[aggregator];
      if (!best || score > best.score + 1e-9) best = { index: c.index, score };
    }
    if (best) out[aggregator] = best.index;
  }
  return out;
}

/**
 * The full EVPV pipeline for one problem: constraints once (extractor, cached by image and
 * question), then per candidate the checklist audit (reliability p), the step judge (+1/−1 per
 * step) and the gated scores with all five aggregators. Candidates run one after another so a
 * row's calls stay in a readable order; rows run concurrently.
 */
export async function scoreEvpvProblem(
  problem: EvpvProblem,
  roles: EvpvRoles,
  options: { readonly baseDir: string },
): Promise<ScoredEvpvProblem> {
  const calls: CallTrace[] = [];
  let constraints: VisualConstraints;
  let extraction: { source: 'model' | 'symbolic' | 'given'; reused?: true };
  if (problem.constraints !== undefined) {
    constraints = problem.constraints;
    extraction = { source: 'given' };
  } else {
    const image = await loadEvpvImage(problem.image, options.baseDir);
    const extracted = await roles.extract({ question: problem.question, image });
    calls.push(...extracted.calls);
    if (extracted.status === 'unreadable')
      return { status: 'failed', error: `field "image": image unreadable: ${extracted.reason}`, calls };
    if (extracted.status === 'invalid') {
      return {
        status: 'failed',
        error: `field "image": no readable image description: ${extracted.reason}`,
        raw: extracted.raw,
        calls,
      };
    }
    constraints = extracted.constraints;
    extraction = { source: extracted.source, ...(extracted.reused && { reused: true as const }) };
  }
  const candidates: ScoredEvpvCandidate[] = [];
  for (const [index, candidate] of problem.candidates.entries()) {
    const parsed = parsePolicyOutput(candidate.output);
    if (!parsed.ok) {
      candidates.push({ index, status: 'failed', output: candidate.output, error: parsed.error });
      continue;
    }
    const { steps, finalAnswer } = parsed.value;
    const checklist = visualChecklist(steps);
    const { calls: auditCalls, ...audit } = await roles.audit(checklist, constraints);
    const judged = await roles.judgeSteps({ question: problem.question, steps });
    calls.push(...auditCalls, ...judged.calls);
    const step_scores = judged.judgments.map((j) => j.score);
    const correct = candidateCorrect(candidate.correct, finalAnswer, problem.answer);
    candidates.push({
      index,
      status: 'ok',
      output: candidate.output,
      ...(finalAnswer !== undefined && { final_answer: finalAnswer }),
      ...(correct !== undefined && { correct }),
      checklist,
      audit,
      step_scores,
      step_judgments: judged.judgments,
      ...(judged.invalid !== undefined && { steps_invalid: judged.invalid }),
      ...gateCandidate(steps, step_scores, audit.p),
    });
  }
  return { status: 'ok', constraints, extraction, candidates, selected: selection(candidates), calls };
}
