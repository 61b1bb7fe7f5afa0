import { z } from 'zod';
import { type ToolKind, ToolKindSchema } from './tool-kind.js';

/** What the report reads back from each output line of `rewardkit judge tool_plan --bench-rows`. */
export const ToolPlanRecordSchema = z.object({
  id: z.string(),
  category: z.string().optional(),
  intent: z.string().optional(),
  score: z.number().nullable().optional(),
  precision: z.number().nullable().optional(),
  recall: z.number().nullable().optional(),
  overall: z.number().nullable().optional(),
  calls_planned: z.array(z.object({ tool: ToolKindSchema })).optional(),
  missed: z
    .array(z.object({ importance: z.string() }))
    .nullable()
    .optional(),
  /** Present on a failed row: malformed input, or a judgment that stayed invalid. */
  error: z.string().optional(),
});
export type ToolPlanRecord = z.infer<typeof ToolPlanRecordSchema>;

/** One group's numbers: means over the rows where each applies (null where none does). */
export interface ToolPlanGroupStats {
  rows: number;
  judged: number;
  failed: number;
  score: number | null;
  precision: number | null;
  recall: number | null;
  overall: number | null;
  calls_per_row: number | null;
  missed_per_row: number | null;
}

export interface ToolPlanReport {
  all: ToolPlanGroupStats;
  by_category: Record<string, ToolPlanGroupStats>;
  by_intent: Record<string, ToolPlanGroupStats>;
  /** Planned calls per tool over the judged rows. */
  tools: Record<ToolKind, number>;
}

/** The group a row without a category or intent is reported under. */
export const UNLABELLED = '(none)';

const mean = (values: ReadonlyArray<number | null | undefined>): number | null => {
  const xs = values.filter((v): v is number => typeof v === 'number');
  return xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length;
};

function statsOf(records: readonly ToolPlanRecord[]): ToolPlanGroupStats {
  const judged = records.filter((r) => r.error === undefined);
  return {
    rows: records.length,
    judged: judged.length,
    failed: records.length - judged.length,
    score: mean(judged.map((r) => r.score)),
    precision: mean(judged.map((r) => r.precision)),
    recall: mean(judged.map((r) => r.recall)),
    overall: mean(judged.map((r) => r.overall)),
    calls_per_row: mean(judged.map((r) => r.calls_planned?.length)),
    missed_per_row: mean(judged.map((r) => r.missed?.length)),
  };
}

function groupBy(records: readonly ToolPlanRecord[], key: (r: ToolPlanRecord) => string | undefined) {
  const groups = new Map<string, ToolPlanRecord[]>();
  for (const r of records) {
    const name = key(r) ?? UNLABELLED;
    groups.set(name, [...(groups.get(name) ?? []), r]);
  }
  return Object.fromEntries([...groups.keys()].sort().map((name) => [name, statsOf(groups.get(name) ?? [])]));
}

/**
 * The per-category and per-intent report over judged rows: each mean is over the rows where the
 * component applies, failed rows are counted and never averaged in as 0.
 */
export function toolPlanReport(records: readonly ToolPlanRecord[]): ToolPlanReport {
  const tools = Object.fromEntries(ToolKindSchema.options.map((t) => [t, 0])) as Record<ToolKind, number>;
  for (const r of records) {
    if (r.error !== undefined) continue;
    for (const c of r.calls_planned ?? []) tools[c.tool]++;
  }
  return {
    all: statsOf(records),
    by_category: groupBy(records, (r) => r.category),
    by_intent: groupBy(records, (r) => r.intent),
    tools,
  };
}
