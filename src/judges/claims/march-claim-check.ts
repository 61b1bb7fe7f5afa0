import { RewardKitError } from '../../core/index.js';
import { type CallTrace, type ChatModel, callStructured } from '../../llm/index.js';
import { answerAfterThink } from './answer-after-think.js';
import { judgeAnswerEquivalence } from './answer-equivalence.js';
import { checkerMessages } from './checker-messages.js';
import { CheckerReplySchema } from './checker-reply-schema.js';
import type { Claim, ClaimMode, ClaimTie } from './claim.js';
import { aggregateClaims, type ClaimAggregate } from './claim-aggregate.js';
import type { ClaimDocument } from './claim-document.js';
import { documentText } from './claim-document.js';
import { type ClaimVerdict, claimVerdict } from './claim-verdict.js';
import { matchClaimAnswer } from './match-claim-answer.js';
import { proposeClaims } from './propose-claims.js';
import { type CheckerReading, readCheckerReply } from './read-checker-reply.js';

export interface ClaimCheckInput {
  /** The user's question (untrusted). */
  question: string;
  /** The Solver's response (untrusted); a single `<think>` block is dropped first. */
  answer: string;
  /** The documents the answer should be grounded in (untrusted). */
  documents: readonly ClaimDocument[];
}

export interface ClaimCheckOptions {
  proposer: ChatModel;
  checker: ChatModel;
  /** The semantic-equivalence judge of `claims` mode (default: the checker model). */
  matcher?: ChatModel;
  /** Default `numeric`. */
  mode?: ClaimMode;
  /** Checker runs per answer (default 3). */
  k?: number;
  /** What a tied claim is (default `fault`). */
  tie?: ClaimTie;
  /** How verdicts become the score (default `zero_tolerance`). */
  aggregate?: ClaimAggregate;
  /** SAFE's K (default 64). */
  safeK?: number;
  /** Fraction presets pass at or above this (default 0.5). */
  passAt?: number;
  /** Claims checked at most (default 10 in numeric mode, 20 in claims mode). */
  maxClaims?: number;
  /** Re-asks after unreadable output, per call (default 2). */
  reasks?: number;
  /** Checker sampling temperature (default 0.7), so the k runs are independent samples. */
  checkerTemperature?: number;
  /** Run i is sent seed + i (default 0). */
  seed?: number;
  signal?: AbortSignal;
}

/** One Checker run's say on one claim. */
export interface ClaimVote {
  readonly run: number;
  readonly status: 'answered' | 'cannot_answer' | 'missing';
  readonly evidence?: string;
  readonly answer?: string;
  readonly match: boolean;
  /** Which rule decided the match; `judge` carries the judge's reason. */
  readonly by?: 'numeric' | 'exact' | 'judge' | 'refusal';
  readonly judgeReason?: string;
  readonly point: 1 | -1;
}

export type CheckedClaim = Claim & ClaimVerdict & { readonly votes: readonly ClaimVote[] };

/** What one Checker run returned besides its answers. */
export interface CheckerRun {
  readonly run: number;
  readonly seed: number;
  readonly missing: readonly string[];
  readonly unknown: readonly string[];
  readonly duplicates: readonly string[];
}

export type ClaimRole = 'proposer' | 'checker' | 'matcher';
export type ClaimCallTrace = CallTrace & { readonly role: ClaimRole };

export type ClaimCheckJudgment =
  | {
      status: 'ok';
      score: number;
      /** `no_claims`: the Proposer found nothing to check; the score is 0 and `flags` say so. */
      verdict: 'pass' | 'fail' | 'no_claims';
      aggregate: ClaimAggregate;
      figures: Readonly<Record<string, unknown>>;
      claims: CheckedClaim[];
      runs: CheckerRun[];
      thinkDropped: boolean;
      flags: string[];
      warnings: string[];
      calls: ClaimCallTrace[];
    }
  /** Recorded, never scored: which stage failed, why, and the calls that were paid for. */
  | {
      status: 'invalid';
      stage: 'documents' | ClaimRole;
      reason: string;
      raw: string | null;
      claims?: Claim[];
      warnings: string[];
      calls: ClaimCallTrace[];
    };

const tag = (role: ClaimRole, calls: readonly CallTrace[]): ClaimCallTrace[] =>
  calls.map((c) => ({ ...c, role }));

/**
 * MARCH's claim check with information asymmetry: the Proposer turns the answer into claims
 * (question + expected value) without the documents; k Checker runs answer the questions from the
 * documents without the answer or the expected values; each run's answer is matched to the
 * expected value (+1 / -1), the majority decides each claim, and `aggregate` scores the verdicts.
 */
export async function marchClaimCheck(
  input: ClaimCheckInput,
  options: ClaimCheckOptions,
): Promise<ClaimCheckJudgment> {
  const mode = options.mode ?? 'numeric';
  const k = options.k ?? 3;
  if (!Number.isInteger(k) || k < 1)
    throw new RewardKitError('RK_USAGE', `k must be a positive integer, got ${k}`);
  const aggregate = options.aggregate ?? 'zero_tolerance';
  const reasks = options.reasks ?? 2;
  const signal = options.signal !== undefined ? { signal: options.signal } : {};
  const documents = input.documents.filter((d) => documentText(d).trim() !== '');
  if (documents.length === 0) {
    const reason =
      input.documents.length === 0
        ? 'no documents: the Checker answers only from the documents, so there is nothing to check against'
        : `all ${input.documents.length} document(s) are empty: there is nothing to check against`;
    return { status: 'invalid', stage: 'documents', reason, raw: null, warnings: [], calls: [] };
  }
  const solver = answerAfterThink(input.answer);
  const warnings = solver.warning === undefined ? [] : [solver.warning];
  const proposed = await proposeClaims(
    { question: input.question, answer: solver.text },
    {
      model: options.proposer,
      mode,
      maxClaims: options.maxClaims ?? (mode === 'numeric' ? 10 : 20),
      reasks,
      ...signal,
    },
  );
  const calls = tag('proposer', proposed.calls);
  if (proposed.status === 'invalid') {
    return {
      status: 'invalid',
      stage: 'proposer',
      reason: `proposer: ${proposed.reason}`,
      raw: proposed.raw,
      warnings,
      calls,
    };
  }
  warnings.push(...proposed.warnings);
  const { claims } = proposed;
  const base = { aggregate, runs: [] as CheckerRun[], thinkDropped: solver.dropped, warnings, calls };
  if (claims.length === 0) {
    warnings.push('the Proposer found no claims to check: scored 0 and flagged no_claims');
    return {
      status: 'ok',
      score: 0,
      verdict: 'no_claims',
      figures: {},
      claims: [],
      flags: ['no_claims'],
      ...base,
    };
  }

  const seed = options.seed ?? 0;
  const questions = claims.map(({ id, question }) => ({ id, question }));
  const outcomes = await Promise.all(
    Array.from({ length: k }, (_, run) =>
      callStructured(
        options.checker,
        {
          messages: checkerMessages(mode, documents, questions),
          schemaName: 'claim_answers',
          temperature: options.checkerTemperature ?? 0.7,
          seed: seed + run,
          variant: run,
          ...signal,
        },
        CheckerReplySchema,
        { reasks },
      ),
    ),
  );
  const readings: CheckerReading[] = [];
  for (const outcome of outcomes) calls.push(...tag('checker', outcome.calls));
  for (const [run, outcome] of outcomes.entries()) {
    if (outcome.status === 'invalid') {
      const reason = `checker run ${run + 1} of ${k}: ${outcome.reason}`;
      return { status: 'invalid', stage: 'checker', reason, raw: outcome.raw, claims, warnings, calls };
    }
    const reading = readCheckerReply(
      claims.map((c) => c.id),
      outcome.value.items.map((i) => ({
        id: String(i.id),
        evidence: i.evidence,
        answer: String(i.answer).trim(),
      })),
    );
    readings.push(reading);
    base.runs.push({
      run,
      seed: seed + run,
      missing: reading.missing,
      unknown: reading.unknown,
      duplicates: reading.duplicates,
    });
    if (reading.missing.length > 0)
      warnings.push(`checker run ${run + 1} skipped ${reading.missing.join(', ')} (-1 each)`);
    if (reading.unknown.length > 0)
      warnings.push(`checker run ${run + 1} used unknown id(s) ${reading.unknown.join(', ')}: ignored`);
    if (reading.duplicates.length > 0)
      warnings.push(
        `checker run ${run + 1} answered ${reading.duplicates.join(', ')} more than once: the first answer counts`,
      );
  }

  // Rule-based matches first; what the rules cannot decide goes to the judge, once per distinct pair.
  const judged = new Map<string, Promise<Awaited<ReturnType<typeof judgeAnswerEquivalence>>>>();
  const pending = claims.map((claim) =>
    readings.map((reading, run) => {
      const item = reading.byId.get(claim.id);
      if (item === undefined) return { run, item, rule: undefined };
      const rule = matchClaimAnswer(mode, claim.expected, item.answer);
      if (rule.match === undefined) {
        const key = JSON.stringify([claim.question, claim.expected, item.answer]);
        if (!judged.has(key)) {
          judged.set(
            key,
            judgeAnswerEquivalence(
              { question: claim.question, expected: claim.expected, answer: item.answer },
              { model: options.matcher ?? options.checker, reasks, ...signal },
            ),
          );
        }
      }
      return { run, item, rule };
    }),
  );
  const judgments = new Map<string, Awaited<ReturnType<typeof judgeAnswerEquivalence>>>();
  for (const [key, promise] of judged) judgments.set(key, await promise);
  for (const j of judgments.values()) calls.push(...tag('matcher', j.calls));
  const failed = [...judgments.values()].find((j) => j.status === 'invalid');
  if (failed?.status === 'invalid') {
    return {
      status: 'invalid',
      stage: 'matcher',
      reason: `matcher: ${failed.reason}`,
      raw: failed.raw,
      claims,
      warnings,
      calls,
    };
  }

  const checked: CheckedClaim[] = claims.map((claim, c) => {
    const votes: ClaimVote[] = (pending[c] ?? []).map(({ run, item, rule }) => {
      if (item === undefined || rule === undefined)
        return { run, status: 'missing', match: false, point: -1 };
      const answered = { run, status: rule.status, evidence: item.evidence, answer: item.answer };
      if (rule.match !== undefined)
        return { ...answered, match: rule.match, by: rule.by, point: rule.match ? 1 : -1 };
      const j = judgments.get(JSON.stringify([claim.question, claim.expected, item.answer]));
      const equivalent = j?.status === 'ok' && j.equivalent;
      return {
        ...answered,
        match: equivalent,
        by: 'judge',
        ...(j?.status === 'ok' && { judgeReason: j.reason }),
        point: equivalent ? 1 : -1,
      };
    });
    return { ...claim, ...claimVerdict(votes, options.tie ?? 'fault'), votes };
  });
  const scored = aggregateClaims(checked, aggregate, {
    ...(options.safeK !== undefined && { safeK: options.safeK }),
    ...(options.passAt !== undefined && { passAt: options.passAt }),
  });
  if (scored === undefined) throw new Error('unreachable: claims were checked but no score came out');
  const ties = checked.filter((c) => c.tie).length;
  const flags = ties > 0 ? ['tie'] : [];
  if (ties > 0)
    warnings.push(`${ties} claim(s) tied across the ${k} checker runs: counted as ${options.tie ?? 'fault'}`);
  return {
    status: 'ok',
    score: scored.score,
    verdict: scored.pass ? 'pass' : 'fail',
    figures: scored.figures,
    claims: checked,
    flags,
    ...base,
  };
}
