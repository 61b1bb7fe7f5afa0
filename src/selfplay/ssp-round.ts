import { errorMessage, type LlmUsage, mapConcurrent } from '../core/index.js';
import { type ChatModel, usageOf } from '../llm/index.js';
import type { Retriever } from '../retrieval/index.js';
import { proposerMessages } from './proposer-prompt.js';
import { type ProposerRewardMode, proposerReward, solveRate } from './proposer-reward.js';
import { DEFAULT_QUESTION_LIMITS, type QuestionLimits, questionRuleRejections } from './question-rules.js';
import { ragCheck } from './rag-check.js';
import { scoreSolverAnswer } from './score-solver-answer.js';
import { runSearchAgent, type SearchTrajectory } from './search-agent.js';
import { solverMessages } from './solver-prompt.js';
import type { SolverRolloutRecord, SspRecord } from './ssp-record.js';
import { firstTagged } from './tagged-blocks.js';

/** A seed: the answer the proposer builds a question for, and other accepted forms of it. */
export interface SspSeed {
  id: string;
  answer: string;
  aliases?: string[];
  /** Searches the proposer is asked to make (default: `SspOptions.searches`). */
  searches?: number;
}

/** The roles; SSP's proposer and solver are one policy, so they are usually the same model. */
export interface SspModels {
  proposer: ChatModel;
  solver: ChatModel;
  /** Answers the RAG check and judges answer equivalence. */
  judge: ChatModel;
}

export interface SspOptions {
  /** Searches asked of the proposer (default 3). */
  searches?: number;
  /** Solver rollouts per verified question (default 5). */
  rollouts?: number;
  /** Documents per search (default 3). */
  topk?: number;
  /** Model calls per episode at most (default 10). */
  maxTurns?: number;
  reward?: ProposerRewardMode;
  /** The proposer's reward for a rejected question (default −1). */
  formatPenalty?: number;
  /** Distractor blocks in the RAG check (default 4). */
  distractors?: number;
  /** Sampling temperature of the policy (default: the backend's). */
  temperature?: number;
  /** Seeds the distractor shuffle and the policy's sampling seeds (default 0). */
  seed?: number;
  /** Seeds handled at once (default 4). */
  concurrency?: number;
  limits?: QuestionLimits;
}

/** A stable 32-bit seed from text (FNV-1a), so a rerun shuffles the same way. */
function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A usage added into a record's, which keeps the calls and the token sums. */
const addUsage = (into: SspRecord['usage'], u: LlmUsage) => {
  into.calls += u.calls;
  into.prompt_tokens += u.prompt_tokens;
  into.completion_tokens += u.completion_tokens;
  const unreported = (into.unreported_calls ?? 0) + (u.unreported_calls ?? 0);
  if (unreported > 0) into.unreported_calls = unreported;
};

/**
 * One round of search self-play over `seeds`: every proposer episode first (the others'
 * documents are the RAG check's distractors), then per seed the rule checks, the RAG check, the
 * solver rollouts and both rewards. `onRecord` sees each seed's record as soon as it is final.
 */
export async function runSspRound(
  seeds: readonly SspSeed[],
  round: number,
  models: SspModels,
  retriever: Retriever,
  options: SspOptions = {},
  onRecord?: (record: SspRecord) => void | Promise<void>,
): Promise<SspRecord[]> {
  const base = options.seed ?? 0;
  const maxTurns = options.maxTurns ?? 10;
  const topk = options.topk ?? 3;
  const concurrency = options.concurrency ?? 4;
  const sampling = options.temperature === undefined ? {} : { temperature: options.temperature };
  const proposals = await mapConcurrent(seeds, concurrency, async (seed) => {
    try {
      const trajectory = await runSearchAgent({
        model: models.proposer,
        retriever,
        messages: proposerMessages(seed.answer, seed.searches ?? options.searches ?? 3),
        stopTag: 'question',
        topk,
        maxTurns,
        seed: hashSeed(`${base}:${round}:${seed.id}:proposer`),
        ...sampling,
      });
      return { ok: true as const, trajectory };
    } catch (error) {
      return { ok: false as const, error: errorMessage(error) };
    }
  });
  return mapConcurrent(seeds, concurrency, async (seed, i) => {
    const golds = [seed.answer, ...(seed.aliases ?? [])];
    const record: SspRecord = {
      id: `${round}:${seed.id}`,
      round,
      seed_id: seed.id,
      status: 'failed',
      answer: seed.answer,
      golds,
      question: null,
      rejections: [],
      proposer_reward: null,
      solve_rate: null,
      solver_rewards: [],
      proposer: { turns: 0, searches: [], documents: 0, messages: [] },
      rollouts: [],
      warnings: [],
      usage: { calls: 0, prompt_tokens: 0, completion_tokens: 0 },
    };
    const proposal = proposals[i] as (typeof proposals)[number];
    if (!proposal.ok) {
      record.error = `proposer episode failed: ${proposal.error}`;
      await onRecord?.(record);
      return record;
    }
    const t = proposal.trajectory;
    addUsage(record.usage, t.usage);
    const question = firstTagged(t.assistantText, 'question');
    record.question = question;
    record.proposer = {
      turns: t.turns,
      searches: t.searches,
      documents: t.documents.flat().length,
      stopped: t.stopped,
      messages: t.messages,
    };
    record.rejections = questionRuleRejections(
      { question, golds, searches: t.searches, documents: t.documents },
      options.limits ?? DEFAULT_QUESTION_LIMITS,
    );
    if (record.rejections.length === 0 && question !== null) {
      const others = proposals.flatMap((p, j) => (j !== i && p.ok ? [p.trajectory.documents.flat()] : []));
      const check = await ragCheck(
        models.judge,
        { question, golds, documents: t.documents.flat(), others },
        { distractors: options.distractors ?? 4, seed: hashSeed(`${base}:${round}:${seed.id}:rag`) },
      );
      addUsage(record.usage, usageOf(check.calls));
      record.rag_check = {
        ...(check.answer !== undefined && { answer: check.answer }),
        ...(check.matchedBy !== undefined && { matched_by: check.matchedBy }),
      };
      if (check.rejection) record.rejections.push(check.rejection);
    }
    if (record.rejections.length > 0 || question === null) {
      record.status = 'rejected';
      record.proposer_reward = options.formatPenalty ?? -1;
      await onRecord?.(record);
      return record;
    }
    for (let r = 0; r < (options.rollouts ?? 5); r++) {
      record.rollouts.push(
        await solve(
          question,
          golds,
          r,
          { models, retriever, topk, maxTurns, sampling },
          hashSeed(`${base}:${round}:${seed.id}:solver:${r}`),
          record,
        ),
      );
    }
    record.solver_rewards = record.rollouts.map((r) => r.reward);
    const scored = record.solver_rewards.filter((r): r is number => r !== null);
    const lost = record.rollouts.length - scored.length;
    if (lost > 0)
      record.warnings.push(
        `${lost} of ${record.rollouts.length} solver rollout(s) have no reward (see rollouts[].reason); s is over the rest`,
      );
    if (scored.length === 0) {
      record.error = 'no solver rollout could be scored';
      await onRecord?.(record);
      return record;
    }
    record.status = 'verified';
    record.solve_rate = solveRate(scored);
    record.proposer_reward = proposerReward(scored, options.reward ?? 'inverse');
    await onRecord?.(record);
    return record;
  });
}

async function solve(
  question: string,
  golds: string[],
  index: number,
  ctx: {
    models: SspModels;
    retriever: Retriever;
    topk: number;
    maxTurns: number;
    sampling: { temperature?: number };
  },
  seed: number,
  record: SspRecord,
): Promise<SolverRolloutRecord> {
  let trajectory: SearchTrajectory;
  try {
    trajectory = await runSearchAgent({
      model: ctx.models.solver,
      retriever: ctx.retriever,
      messages: solverMessages(question, ctx.maxTurns),
      stopTag: 'answer',
      topk: ctx.topk,
      maxTurns: ctx.maxTurns,
      seed,
      ...ctx.sampling,
    });
  } catch (error) {
    return {
      index,
      status: 'failed',
      reward: null,
      answer: null,
      answer_tags: 0,
      turns: 0,
      searches: [],
      reason: errorMessage(error),
      messages: [],
    };
  }
  addUsage(record.usage, trajectory.usage);
  const episode = {
    turns: trajectory.turns,
    searches: trajectory.searches,
    stopped: trajectory.stopped,
    messages: trajectory.messages,
  };
  let score: Awaited<ReturnType<typeof scoreSolverAnswer>>;
  try {
    score = await scoreSolverAnswer(trajectory.assistantText, { question, golds }, ctx.models.judge);
  } catch (error) {
    return {
      index,
      status: 'invalid',
      reward: null,
      answer: null,
      answer_tags: 0,
      reason: errorMessage(error),
      ...episode,
    };
  }
  addUsage(record.usage, usageOf(score.calls));
  if (score.status === 'invalid')
    return {
      index,
      status: 'invalid',
      reward: null,
      answer: score.answer,
      answer_tags: score.answerTags,
      reason: `no readable equivalence judgment: ${score.reason}`,
      ...episode,
    };
  return {
    index,
    status: 'ok',
    reward: score.reward,
    answer: score.answer,
    answer_tags: score.answerTags,
    matched_by: score.matchedBy,
    ...episode,
  };
}
