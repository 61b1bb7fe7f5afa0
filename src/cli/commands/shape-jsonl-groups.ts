import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { errorMessage } from '../../core/index.js';
import { checkRow, type FieldMapping, inputRows, openDataset, rowPlace } from '../../dataset/index.js';
import type { GroupMethod, GroupShaping, GroupShapingContext } from '../../rl/index.js';
import { createOrderedPool } from '../../runner/index.js';

/** A group that could not be shaped: where it was, and every reason as `file:line: ...`. */
export interface FailedGroupLine {
  group?: string;
  line: number;
  errors: string[];
}

export interface ShapeJsonlGroupsOptions {
  /** A dataset path (JSONL, JSON array, Parquet, dataset folder), or a JSONL stream (stdin). */
  input: string | Readable;
  inputName: string;
  /** The split to read from a dataset folder with several. */
  split?: string;
  /** Where the method's fields come from in the dataset's rows (`--map`). */
  mappings?: readonly FieldMapping[];
  output: Writable;
  method: GroupMethod;
  /** Already parsed with the method's options schema. */
  options: unknown;
  context: GroupShapingContext;
  /** Groups shaped at once; default 1. */
  concurrency?: number;
  /** Stops reading; the groups in flight finish and are written. */
  signal?: AbortSignal;
  onFailed?: (line: FailedGroupLine) => void;
  /** Each group shaped, in input order: its row as read and the method's output. */
  onShaped?: (row: unknown, shaping: GroupShaping) => void;
}

export interface ShapeJsonlGroupsSummary {
  groups: number;
  ok: number;
  failed: number;
  interrupted: boolean;
}

/** The group id of a raw row, when it has a usable one, so a failure line still names its group. */
function rawGroup(value: unknown): string | undefined {
  const group = (value as { group?: unknown } | null)?.group;
  return typeof group === 'string' || (typeof group === 'number' && Number.isFinite(group))
    ? String(group)
    : undefined;
}

type Outcome = { ok: true; row: unknown; value: GroupShaping } | { ok: false; line: FailedGroupLine };

/**
 * Shapes every group of a dataset (JSONL, Parquet, …) and writes one JSON line per group, in input order. Groups
 * run `concurrency` at a time (default 1: the stateful methods must see groups one by one, in
 * order). A row that is malformed or fails is written as `{group?, line, errors}`; the run goes on.
 */
export async function shapeJsonlGroups(options: ShapeJsonlGroupsOptions): Promise<ShapeJsonlGroupsSummary> {
  const { method, inputName: name, output } = options;
  let ok = 0;
  let failed = 0;
  let interrupted = false;
  const pool = createOrderedPool<Outcome>(options.concurrency ?? 1, async (outcome) => {
    if (outcome.ok) {
      ok++;
      options.onShaped?.(outcome.row, outcome.value);
    } else {
      failed++;
      options.onFailed?.(outcome.line);
    }
    const text = `${JSON.stringify(outcome.ok ? outcome.value : outcome.line)}\n`;
    if (!output.write(text)) await once(output, 'drain');
  });
  const fail = (line: FailedGroupLine) => pool.submit(async () => ({ ok: false, line }));
  const dataset = openDataset(options.input, {
    inputName: name,
    ...(options.split !== undefined && { split: options.split }),
  });
  for await (const record of dataset.records) {
    if (options.signal?.aborted) {
      interrupted = true;
      break;
    }
    for (const row of inputRows(record, options.mappings ? { mappings: options.mappings } : {})) {
      const line = row.origin.line;
      if (!row.ok) {
        await fail({ line, errors: row.errors });
        continue;
      }
      const group = rawGroup(row.value);
      const where = { ...(group !== undefined && { group }), line };
      const parsed = checkRow(row.value, row.origin, method.inputSchema);
      if (!parsed.ok) {
        await fail({ ...where, errors: parsed.errors });
        continue;
      }
      await pool.submit(async (): Promise<Outcome> => {
        try {
          const value = await method.shape(parsed.value, options.options, options.context);
          return { ok: true, row: parsed.value, value };
        } catch (error) {
          return {
            ok: false,
            line: { ...where, errors: [`${rowPlace(row.origin)}: ${errorMessage(error)}`] },
          };
        }
      });
    }
  }
  await pool.drain();
  return { groups: ok + failed, ok, failed, interrupted };
}
