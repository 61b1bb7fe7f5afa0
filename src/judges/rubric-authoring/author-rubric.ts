import { RewardKitError } from '../../core/index.js';
import { type CallTrace, type ChatModel, usageOf } from '../../llm/index.js';
import type { Retriever } from '../../retrieval/index.js';
import { MedicalRubricSchema } from '../medical/medical-rubric.js';
import { answerQuery, type ModelAnswer } from './answer-query.js';
import type { AuthoringQuery } from './authoring-query.js';
import { answerAgreement, keyPointSupport } from './checklist-agreement.js';
import { crossVerifyAnswers } from './cross-verify-answers.js';
import { type EvidencePassage, evidencePassages } from './evidence-passage.js';
import { extractChecklist } from './extract-checklist.js';
import { keptByConsensus } from './kept-by-consensus.js';
import { reviewReasons } from './review-reasons.js';
import type { AuthoringFailure, AuthoringNotes, ChecklistItem, RubricRecord } from './rubric-record.js';
import { writeRubric } from './write-rubric.js';

export interface RubricAuthoringOptions {
  /** The models that answer each query independently (at least two for agreement to mean anything). */
  answerers: readonly ChatModel[];
  /** The model that extracts, cross-checks and writes. */
  writer: ChatModel;
  /** Below this agreement a rubric is flagged `needs_review` (default 0.6). */
  agreementThreshold?: number;
  /** Re-asks per structured call after unreadable output (default 2). */
  reasks?: number;
  /**
   * Evidence retrieval: the `k` best passages for the query are given to the cross-check and the
   * writer (untrusted blocks) and kept in the notes for review.
   */
  evidence?: { retriever: Retriever; k: number };
  /** The share of answers a key point needs to reach the writer unless evidence supports it (default 0: all). */
  minSupport?: number;
  signal?: AbortSignal;
}

export const DEFAULT_AGREEMENT_THRESHOLD = 0.6;

/** Tokens the backends reported for these calls (see `usageOf`). */
const tokensOf = (calls: Parameters<typeof usageOf>[0]) => {
  const usage = usageOf(calls);
  return usage.prompt_tokens + usage.completion_tokens;
};

/**
 * The QuarkMedBench rubric-authoring pipeline for one query ("multi-model consensus + evidence
 * retrieval"): with an evidence retriever, the query's best passages are fetched first; every
 * answerer answers; the writer extracts each answer's key points (support and agreement are
 * counted here, not asked of it), cross-checks the answers, the reference and the evidence point by
 * point (citing passages), and writes the four-section rubric from the points consensus keeps
 * (`keptByConsensus`), validated by `MedicalRubricSchema` with re-asks. A step that fails ends the
 * query as a `failed` record with the reason and the raw output; a query with too little
 * agreement, contradictions, doubtful points or evidence against a point is flagged `needs_review`.
 * The passages given and the ones each point cites stay in the notes, for the reviewer.
 */
export async function authorRubric(
  query: AuthoringQuery,
  options: RubricAuthoringOptions,
): Promise<RubricRecord> {
  const { writer } = options;
  const threshold = options.agreementThreshold ?? DEFAULT_AGREEMENT_THRESHOLD;
  const step = { reasks: options.reasks ?? 2, ...(options.signal && { signal: options.signal }) };
  const minSupport = options.minSupport ?? 0;
  const failures: AuthoringFailure[] = [];
  const calls: CallTrace[] = [];
  let passages: EvidencePassage[] | undefined;
  let retrievalError: string | undefined;
  if (options.evidence) {
    const { retriever, k } = options.evidence;
    try {
      passages = evidencePassages((await retriever.search([query.query], k))[0] ?? []);
    } catch (error) {
      // A retriever reports its failures as RewardKitErrors (see `Retriever`); anything else is a bug.
      if (!RewardKitError.isInstance(error)) throw error;
      retrievalError = error.message;
      failures.push({ step: 'retrieval', model: retriever.name, reason: retrievalError });
    }
  }
  // A query whose evidence could not be fetched is not authored without it, and costs no model call.
  const answers: ModelAnswer[] =
    retrievalError === undefined
      ? await Promise.all(options.answerers.map((model) => answerQuery(query.query, model, step)))
      : [];
  const answered = answers.filter((a) => a.status === 'ok');
  for (const a of answers) {
    if (a.status === 'failed') failures.push({ step: 'answer', model: a.model, reason: a.reason });
  }
  const notes = (): AuthoringNotes => ({
    agreement: null,
    threshold,
    needs_review: true,
    review_reasons: [],
    answers: answers.map((a) =>
      a.status === 'ok'
        ? { model: a.model, status: 'ok', answer: a.answer, truncated: a.truncated }
        : { model: a.model, status: 'failed', reason: a.reason },
    ),
    checklist: [],
    ...(options.evidence && {
      evidence: { retriever: options.evidence.retriever.name, passages: passages ?? [] },
    }),
    ...(options.minSupport !== undefined && { min_support: minSupport }),
    failures,
    calls: calls.length + answers.length,
    tokens: tokensOf([...calls, ...answered.map((a) => a.call)]),
  });
  const fail = (error: string): RubricRecord => ({
    id: query.id,
    status: 'failed',
    error,
    authoring: notes(),
  });
  if (retrievalError !== undefined) return fail(`retrieval: ${retrievalError}`);
  if (answered.length === 0) return fail('no answerer produced an answer');

  const texts = answered.map((a) => a.answer);
  const extraction = await extractChecklist(
    { query: query.query, answers: texts },
    { model: writer, ...step },
  );
  calls.push(...extraction.calls);
  if (extraction.status === 'invalid') {
    failures.push({ step: 'checklist', model: writer.name, reason: extraction.reason, raw: extraction.raw });
    return fail(`checklist: ${extraction.reason}`);
  }
  const stated = extraction.value.answers
    .slice()
    .sort((a, b) => a.answer - b.answer)
    .map((a) => a.states);
  const ids = extraction.value.key_points.map((k) => k.id);
  const support = keyPointSupport(ids, stated);
  const agreement = answerAgreement(stated);

  const verification = await crossVerifyAnswers(
    {
      query: query.query,
      ...(query.reference !== undefined && { reference: query.reference }),
      answers: texts,
      checklist: extraction.value,
      ...(passages && { evidence: passages }),
    },
    { model: writer, ...step },
  );
  calls.push(...verification.calls);
  if (verification.status === 'invalid') {
    failures.push({
      step: 'cross_verification',
      model: writer.name,
      reason: verification.reason,
      raw: verification.raw,
    });
    return fail(`cross-verification: ${verification.reason}`);
  }
  const modelOf = (n: number) => answered[n - 1]?.model ?? `answer ${n}`;
  const checklist: ChecklistItem[] = extraction.value.key_points.map((point) => {
    const check = verification.value.checks.find((c) => c.id === point.id);
    const item: ChecklistItem = {
      id: point.id,
      text: point.text,
      support: support.get(point.id) ?? 0,
      stated_by: answered.filter((_, i) => stated[i]?.includes(point.id)).map((a) => a.model),
      contradicted_by: [...new Set(check?.contradicted_by ?? [])].map(modelOf),
      correct: check?.correct ?? 'uncertain',
      ...(query.reference !== undefined && check?.reference !== undefined && { reference: check.reference }),
      ...(passages &&
        check?.evidence !== undefined && { evidence: check.evidence, cites: check.cites ?? [] }),
      note: check?.note ?? '',
    };
    return { ...item, kept: keptByConsensus(item, minSupport) };
  });
  const reasons = reviewReasons({
    answers: answered.length,
    agreement,
    threshold,
    checks: checklist.map((item) => ({
      id: item.id,
      contradictedBy: item.contradicted_by.length,
      correct: item.correct,
      reference: item.reference ?? 'no_reference',
      ...(item.evidence !== undefined && { evidence: item.evidence }),
    })),
    ...(passages && { retrieved: passages.length }),
  });

  const authoring = (): AuthoringNotes => ({
    ...notes(),
    agreement: agreement ?? null,
    needs_review: reasons.length > 0,
    review_reasons: reasons,
    checklist,
  });
  if (!checklist.some((item) => item.kept)) {
    return {
      id: query.id,
      status: 'failed',
      error: `consensus: no key point is stated by ${minSupport} of the answers or supported by the evidence`,
      authoring: authoring(),
    };
  }
  const draft = await writeRubric(
    {
      query: query.query,
      ...(query.reference !== undefined && { reference: query.reference }),
      checklist: checklist.filter((item) => item.kept),
      answers: answered.length,
      ...(passages && { evidence: passages }),
    },
    { model: writer, ...step },
  );
  calls.push(...draft.calls);
  if (draft.status === 'invalid') {
    failures.push({ step: 'write', model: writer.name, reason: draft.reason, raw: draft.raw });
    return { id: query.id, status: 'failed', error: `write: ${draft.reason}`, authoring: authoring() };
  }
  const rubric = MedicalRubricSchema.parse({ id: query.id, query: query.query, ...draft.value });
  return { id: query.id, status: 'ok', rubric, authoring: authoring() };
}
