import type { BenchJudgment, BenchOutcome, BenchRecord } from '../bench/index.js';
import { type Evidence, failedResult, type RewardResult, type Verdict } from '../core/index.js';
import { type CallTrace, usageOf } from '../llm/index.js';
import { judgeCallsOf } from '../llm/judge-call-of.js';

/**
 * A judgment's credit in its item's reward: right 1, a tie (or orders that disagreed) half, wrong
 * 0; an invalid one is left out, never a stand-in score.
 */
const CREDIT: Readonly<Record<BenchOutcome, number | null>> = {
  correct: 1,
  tie: 0.5,
  wrong: 0,
  invalid: null,
};

const VERDICT: Readonly<Record<BenchOutcome, Verdict>> = {
  correct: 'pass',
  tie: 'fail',
  wrong: 'fail',
  invalid: 'error',
};

/** A judgment as the output line holds it: the record's fields and every call's trace. */
type TracedLine = BenchJudgment & { calls?: readonly CallTrace[] };

/** What the judgment said against the label, in words, for the evidence's `reason`. */
function reasonOf(j: Omit<BenchJudgment, 'usage'>): string {
  if (j.outcome === 'invalid') return `no readable judgment: ${j.reason ?? 'unknown reason'}`;
  if (j.kind === 'pairwise')
    return `verdict "${j.verdict}"; the labelled better response was shown ${j.better === 'none' ? 'on neither side (an A=B label)' : j.better}: ${j.outcome}`;
  if (j.kind === 'listwise')
    return `picked ${j.picked ?? '—'}; the chosen answer was ${j.chosen_label ?? '—'}: ${j.outcome}`;
  return `ratings ${(j.ratings ?? []).map((r) => r ?? '—').join(', ')} (the first ${j.num_correct ?? 1} correct): ${j.outcome}`;
}

/** One judgment of an item as evidence: the inspector's bench view reads its detail, and its calls. */
function evidenceOf(line: TracedLine, judge: string): Evidence {
  const { calls = [], usage: _, ...judgment } = line;
  const credit = CREDIT[judgment.outcome];
  return {
    source: judgment.key,
    kind: 'bench',
    ...(credit !== null && { score: credit }),
    verdict: VERDICT[judgment.outcome],
    detail: { judge, ...judgment },
    veto: false,
    invalid: judgment.outcome === 'invalid',
    reason: reasonOf(judgment),
    ...(calls.length > 0 && { usage: usageOf(calls), calls: judgeCallsOf(calls) }),
    elapsed_ms: calls.reduce((sum, call) => sum + call.latencyMs, 0),
  };
}

/**
 * A benchmark item's line as a stored result: the sample id is the item's, the data source its
 * group (subset, section, domain), one evidence per judgment with its calls, a component per
 * judgment (its credit), and the reward the mean credit. An item whose every judgment is invalid,
 * or a row that failed, is a failed result with its reasons.
 */
export function benchRecordResult(record: BenchRecord, judge: string): RewardResult {
  const group = record.group === undefined ? {} : { data_source: record.group };
  if (record.status === 'failed') return failedResult(record.id, [record.error], group);
  const lines = record.judgments as readonly TracedLine[];
  const evidence = lines.map((line) => evidenceOf(line, judge));
  const components = Object.fromEntries(lines.map((j) => [j.key, CREDIT[j.outcome]]));
  const credits = lines.flatMap((j) => {
    const credit = CREDIT[j.outcome];
    return credit === null ? [] : [credit];
  });
  const totalMs = evidence.reduce((sum, e) => sum + e.elapsed_ms, 0);
  if (credits.length === 0) {
    const reasons = lines.map((j) => `${j.key}: no readable judgment: ${j.reason ?? 'unknown reason'}`);
    return failedResult(record.id, reasons, { ...group, evidence, components }, totalMs);
  }
  return {
    spec: 'rk/v1',
    id: record.id,
    status: 'ok',
    reward: credits.reduce((a, b) => a + b, 0) / credits.length,
    components,
    evidence,
    errors: [],
    warnings: [],
    ...group,
    timings: { total_ms: totalMs },
  };
}
