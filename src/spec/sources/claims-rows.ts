import { z } from 'zod';
import { SampleIdSchema } from '../../core/index.js';
import { ClaimDocumentsSchema } from '../../judges/claims/claim-document.js';
import type { ClaimCheckJudgment } from '../../judges/index.js';
import { type DetailOf, type JudgeRowFormat, lineCost, type RowLine } from '../judge-rows.js';

/** A RAG answer to check, as MARCH's data writes it. */
const ClaimRowSchema = z.object({
  id: SampleIdSchema,
  question: z.string(),
  /** Missing or empty: recorded as a failed row (nothing to check against), with no Checker call. */
  documents: ClaimDocumentsSchema.optional(),
  answer: z.string(),
});

/**
 * Answers checked (lines with a cost: a row that never reached the check has none), claims and
 * faults over every line of the output, and the LLM calls they took.
 */
function claimTotals(lines: readonly RowLine[]) {
  const totals = { answers: 0, claims: 0, faults: 0, calls: 0 };
  for (const line of lines) {
    if (typeof line.calls !== 'number') continue;
    totals.answers++;
    totals.calls += line.calls;
    if ('error' in line || !Array.isArray(line.claims)) continue;
    totals.claims += line.claims.length;
    totals.faults += typeof line.faults === 'number' ? line.faults : 0;
  }
  return totals;
}

/** `rewardkit judge claims --bench-rows`: the claims kind over MARCH's rows, its lines in MARCH's terms. */
export const claimRows: JudgeRowFormat<typeof ClaimRowSchema> = {
  command: ['check', 'claims'],
  description:
    'MARCH claim check of RAG answers: rows {"id", "question", "documents", "answer"} -> {"id", "reward", "claims", ...}',
  help: `Each row: {"id", "question", "documents": [string | {"title"?, "text"}], "answer"}. The answer's
single <think> block is dropped. The Proposer (question + answer, never the documents) lists claims
as questions with expected values; k Checker runs (documents + questions, never the answer or the
expected values) answer each from the documents or say "cannot answer"; each run's answer that
matches scores +1, anything else -1, and the sign of the sum decides each claim (ties: --tie).

Each output line: {"id", "reward", "verdict" ("pass" | "fail" | "no_claims"), "aggregate", "faults",
"supported", "claims": [{"id", "question", "expected", "verdict", "sum", "label", "votes": [...]}],
"figures", "runs" (per Checker run: skipped, unknown and repeated ids), "flags", "warnings",
"calls", "tokens", "usage"}. Rewards: zero_tolerance (default) -1 if any fault else 0; proportional
-0.1 × min(faults, 13); ragas, factscore, safe_f1, refchecker_* as in docs/claims.md. No claims:
reward 0, verdict "no_claims", flag "no_claims". Missing or empty documents, an unreadable
Proposer, Checker or matcher, or a backend that fails after its retries: {"id", "error", "stage",
"raw", ...}, a failed row, never a score. A second summary line counts claims, faults and calls.`,
  examples: [
    '--models models.yaml -m judge --input rag.jsonl -o checked.jsonl',
    '--models models.yaml --proposer small --checker large --mode claims \\\n    --reward ragas --input rag.jsonl',
  ],
  concurrency: 8,
  schema: ClaimRowSchema,
  idOf: (row) => row.id,
  sample: (row) => ({
    id: row.id,
    prompt: row.question,
    response: row.answer,
    metadata: row.documents === undefined ? {} : { documents: row.documents },
  }),
  line: ({ detail, usage }) => {
    const judgment = detail as DetailOf<ClaimCheckJudgment>;
    const cost = lineCost(usage);
    if (judgment.status === 'invalid') {
      return {
        error: `the claim check could not be made (${judgment.stage}): ${judgment.reason}`,
        stage: judgment.stage,
        raw: judgment.raw,
        ...(judgment.claims !== undefined && { claims: judgment.claims }),
        warnings: judgment.warnings,
        ...cost,
      };
    }
    const faults = judgment.claims.filter((c) => c.verdict === 'fault').length;
    return {
      reward: judgment.score,
      verdict: judgment.verdict,
      aggregate: judgment.aggregate,
      faults,
      supported: judgment.claims.length - faults,
      claims: judgment.claims,
      figures: judgment.figures,
      runs: judgment.runs,
      think_dropped: judgment.thinkDropped,
      flags: judgment.flags,
      warnings: judgment.warnings,
      ...cost,
    };
  },
  report: {
    build: claimTotals,
    format: (t: ReturnType<typeof claimTotals>, command: string) =>
      `rewardkit ${command}: ${t.claims} claims checked, ${t.faults} faults, ${t.calls} LLM calls (${(t.answers === 0 ? 0 : t.calls / t.answers).toFixed(1)} per answer)\n`,
  },
};
