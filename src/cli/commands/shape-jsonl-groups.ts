import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { errorMessage } from '../../core/index.js';
import { parseRow, readJsonlLines } from '../../dataset/index.js';
import type { GroupMethod, GroupShapingContext } from '../../rl/index.js';
import { createOrderedPool } from '../../runner/index.js';

/** A group that could not be shaped: where it was, and every reason as `file:line: ...`. */
export interface FailedGroupLine {
  group?: string;
  line: number;
  errors: string[];
}

export interface ShapeJsonlGroupsOptions {
  input: string | Readable;
  inputName: string;
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
}

export interface ShapeJsonlGroupsSummary {
  groups: number;
  ok: number;
  failed: number;
  interrupted: boolean;
}

/** The group id of a raw row, when it has a usable one, so a failure line still names its group. */
function rawGroup(text: string): string | undefined {
  try {
    const group = (JSON.parse(text) as { group?: unknown })?.group;
    return typeof group === 'string' || (typeof group === 'number' && Number.isFinite(group))
      ? String(group)
      : undefined;
  } catch {
    return undefined;
  }
}

type Outcome = { ok: true; value: unknown } | { ok: false; line: FailedGroupLine };

/**
 * Shapes every group of a JSONL file and writes one JSON line per group, in input order. Groups
 * run `concurrency` at a time (default 1: the stateful methods must see groups one by one, in
 * order). A row that is malformed or fails is written as `{group?, line, errors}`; the run goes on.
 */
export async function shapeJsonlGroups(options: ShapeJsonlGroupsOptions): Promise<ShapeJsonlGroupsSummary> {
  const { method, inputName: name, output } = options;
  let ok = 0;
  let failed = 0;
  let interrupted = false;
  const pool = createOrderedPool<Outcome>(options.concurrency ?? 1, async (outcome) => {
    if (outcome.ok) ok++;
    else {
      failed++;
      options.onFailed?.(outcome.line);
    }
    const text = `${JSON.stringify(outcome.ok ? outcome.value : outcome.line)}\n`;
    if (!output.write(text)) await once(output, 'drain');
  });
  const fail = (line: FailedGroupLine) => pool.submit(async () => ({ ok: false, line }));
  for await (const line of readJsonlLines(options.input)) {
    if (options.signal?.aborted) {
      interrupted = true;
      break;
    }
    if (line.text === undefined) {
      await fail({ line: line.line, errors: [`${name}:${line.line}: ${line.error}`] });
      continue;
    }
    const group = rawGroup(line.text);
    const where = { ...(group !== undefined && { group }), line: line.line };
    const parsed = parseRow(line.text, { file: name, line: line.line }, method.inputSchema);
    if (!parsed.ok) {
      await fail({ ...where, errors: parsed.errors });
      continue;
    }
    await pool.submit(async (): Promise<Outcome> => {
      try {
        return { ok: true, value: await method.shape(parsed.value, options.options, options.context) };
      } catch (error) {
        return { ok: false, line: { ...where, errors: [`${name}:${line.line}: ${errorMessage(error)}`] } };
      }
    });
  }
  await pool.drain();
  return { groups: ok + failed, ok, failed, interrupted };
}
