import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { errorMessage } from '../../core/index.js';
import { parseRow, readJsonlLines } from '../../dataset/index.js';
import type { GroupMethod, GroupShapingContext } from '../../rl/index.js';

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
  /** Stops reading; the group in flight finishes. */
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

/**
 * Shapes every group of a JSONL file in input order, one at a time (the stateful methods must
 * see groups in order), and writes one JSON line per group. A row that is malformed or fails is
 * written as `{group?, line, errors}`; the run goes on.
 */
export async function shapeJsonlGroups(options: ShapeJsonlGroupsOptions): Promise<ShapeJsonlGroupsSummary> {
  const { method, inputName: name, output } = options;
  let ok = 0;
  let failed = 0;
  let interrupted = false;
  const write = async (value: unknown) => {
    if (!output.write(`${JSON.stringify(value)}\n`)) await once(output, 'drain');
  };
  const fail = async (line: FailedGroupLine) => {
    failed++;
    options.onFailed?.(line);
    await write(line);
  };
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
    const parsed = parseRow(line.text, { file: name, line: line.line }, method.inputSchema);
    if (!parsed.ok) {
      await fail({ ...(group !== undefined && { group }), line: line.line, errors: parsed.errors });
      continue;
    }
    try {
      await write(await method.shape(parsed.value, options.options, options.context));
      ok++;
    } catch (error) {
      await fail({
        ...(group !== undefined && { group }),
        line: line.line,
        errors: [`${name}:${line.line}: ${errorMessage(error)}`],
      });
    }
  }
  return { groups: ok + failed, ok, failed, interrupted };
}
