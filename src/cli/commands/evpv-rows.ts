import { dirname, resolve } from 'node:path';
import type { JudgeCall, LlmUsage } from '../../core/index.js';
import type { CommandState } from '../command-state.js';
import type { EvpvRowLine } from '../evpv-row-result.js';
import { judgedRows } from '../judged-rows.js';
import type { StoredJsonlRun } from '../stored-jsonl-run.js';
import { type EvpvRoleFlags, openEvpvRoles } from './evpv-roles.js';
import { type JsonlCommandFlags, requireJsonlInput, runJsonlCommand } from './jsonl-command.js';

/** The flags of an EVPV rows run: input, output, the roles' models and their response cache. */
export interface EvpvRowsFlags extends JsonlCommandFlags, EvpvRoleFlags {
  reasks: number;
}

/** EVPV's problem rows and the lines written for them, for `--help`. */
export const EVPV_ROWS_HELP = `Each input row: {"id", "question", "image", "answer"?, "candidates": [{"output", "correct"?}]}.
"image" is a path (relative to the input file), a data URL, an http(s) URL, or a symbolic fact
dictionary {"facts": {...}} (read without a model); "constraints" may replace it. "output" is the
policy's steps, tagged (<step>… <visual_dependency>…</visual_dependency></step> … <answer>…</answer>)
or JSON ({"steps": [{"text", "visual_dependency"}], "final_answer"}). See docs/evpv.md.

Each output line: {"id", "question", "answer", "constraints", "extraction", "candidates": [{"index",
"status", "output", "final_answer", "correct", "checklist", "audit": {"status", "p",
"contradictions"}, "step_scores", "step_judgments", "visual_steps", "gated_scores", "scores":
{"mean", "weighted", "streak", "geometric", "first_error"}}], "selected", "calls", "usage"}. It is
valid input for \`rewardkit evpv corruption\`. An unreadable image or description fails the row
({"id", "error"}); an unreadable candidate output is a failed candidate; an unreadable audit is
p = 0 and an unreadable step judgment -1, each recorded with its reason.

The run is kept in the store (--store; kind judge): a result per problem, its reward the score of
the candidate the mean aggregator selects, a component per candidate, the row's calls with it.`;

/**
 * The full EVPV pipeline with the LLM roles over problem rows (`judge evpv --bench-rows`, and the
 * old `evpv score`): every candidate's gated step scores under every aggregator, per row.
 */
export async function runEvpvRows(flags: EvpvRowsFlags, command: string, state: CommandState): Promise<void> {
  requireJsonlInput(flags);
  const { usageOf } = await import('../../llm/index.js');
  const { judgeCallsOf } = await import('../../llm/judge-call-of.js');
  const judges = await import('../../judges/evpv/index.js');
  const roles = await openEvpvRoles(flags, ['extractor', 'auditor', 'stepJudge'], command, state);
  const baseDir = flags.input === '-' ? process.cwd() : dirname(resolve(flags.input));
  const { extractor, auditor, stepJudge } = roles.models as Required<typeof roles.models>;
  const pipeline = judges.llmEvpvRoles({ extractor, auditor, stepJudge }, { reasks: flags.reasks })();
  let stored: StoredJsonlRun | undefined;
  try {
    const { openStoredJsonlRun } = await import('../stored-jsonl-run.js');
    const { evpvRowResult } = await import('../evpv-row-result.js');
    // Each row's calls, from its judgment until its line is stored.
    const judged = judgedRows((line, row: { calls: JudgeCall[]; usage: LlmUsage; elapsedMs: number }) => ({
      result: evpvRowResult(line as EvpvRowLine, row),
    }));
    stored = await openStoredJsonlRun(flags, {
      command,
      spec_name: command,
      spec: { command, kind: 'evpv' },
      kind: 'judge',
      resultOf: judged.resultOf,
      tally: judged.tally,
    });
    const summary = await runJsonlCommand(
      command,
      flags,
      {
        schema: judges.EvpvProblemSchema,
        idOf: (row) => row.id,
        ...(stored && { onWritten: stored.onWritten }),
        handle: async (row) => {
          const started = performance.now();
          const scored = await judges.scoreEvpvProblem(row, pipeline, { baseDir });
          const { calls, ...rest } = scored;
          const usage = usageOf(calls);
          if (stored)
            judged.keep(row.id, {
              calls: judgeCallsOf(calls),
              usage,
              elapsedMs: performance.now() - started,
            });
          if (rest.status === 'failed') {
            return {
              error: rest.error,
              ...(rest.raw !== undefined && { raw: rest.raw }),
              calls: usage.calls,
              usage,
            };
          }
          const { status: _, ...result } = rest;
          // A candidate whose step judge never answered readably has -1 steps by convention,
          // not by judgment: the row is kept whole but counted failed, so no one reads those
          // scores as the judge's.
          const unjudged = result.candidates.flatMap((c) =>
            c.status === 'ok' && c.steps_invalid !== undefined ? [c] : [],
          );
          return {
            ...(unjudged.length > 0 && {
              error: `the step judge never answered readably for candidate${unjudged.length === 1 ? '' : 's'} ${unjudged.map((c) => c.index).join(', ')}: ${unjudged[0]?.steps_invalid?.reason}`,
            }),
            question: row.question,
            ...(row.answer !== undefined && { answer: row.answer }),
            ...result,
            calls: usage.calls,
            usage,
          };
        },
      },
      state,
    );
    await stored?.finish(summary, () => ({
      kind: 'judge',
      headline: judged.headline(command),
      command,
      judge: 'evpv',
    }));
  } finally {
    await stored?.close();
    await roles.close();
  }
}
