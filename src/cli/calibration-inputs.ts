import type { LabelRow, ScoredRow } from '../calibration/index.js';
import { RewardKitError, type Sample } from '../core/index.js';

/** Rows read from one file: the usable ones, and every other row named by file:line:field. */
export interface ReadRows<T> {
  readonly rows: T[];
  readonly problems: string[];
}

const nameOf = (file: string) => (file === '-' ? '<stdin>' : file);

/** Each line of a JSONL file as a parsed JSON object, or a problem naming file:line. */
async function* jsonObjects(
  file: string,
  problems: string[],
): AsyncGenerator<{ value: Record<string, unknown>; place: string }> {
  const { readJsonlLines } = await import('../dataset/index.js');
  for await (const line of readJsonlLines(file === '-' ? process.stdin : file)) {
    const place = `${nameOf(file)}:${line.line}`;
    if (line.text === undefined) {
      problems.push(`${place}: ${line.error}`);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(line.text);
    } catch (error) {
      problems.push(`${place}: not JSON: ${(error as Error).message}`);
      continue;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`${place}: expected a JSON object`);
      continue;
    }
    yield { value: value as Record<string, unknown>, place };
  }
}

const idOf = (value: Record<string, unknown>): string | undefined =>
  typeof value.id === 'string' && value.id !== ''
    ? value.id
    : typeof value.id === 'number'
      ? String(value.id)
      : undefined;

/** `{id, label}` rows; a row without an id or with a label that is not 0/1/boolean/[0, 1] is named and left out. */
export async function readLabelRows(file: string): Promise<ReadRows<LabelRow>> {
  const { labelValue } = await import('../calibration/index.js');
  const problems: string[] = [];
  const rows: LabelRow[] = [];
  for await (const { value, place } of jsonObjects(file, problems)) {
    const id = idOf(value);
    if (id === undefined) {
      problems.push(
        `${place}:id: expected a non-empty string or a number, got ${JSON.stringify(value.id) ?? 'nothing'}`,
      );
      continue;
    }
    const label = labelValue(value.label);
    if (label === undefined) {
      problems.push(
        `${place}:label: expected 0, 1, true, false or a number in [0, 1], got ${JSON.stringify(value.label) ?? 'nothing'}`,
      );
      continue;
    }
    rows.push({ id, label, place });
  }
  return { rows, problems };
}

/**
 * The score of each row of a scores file (what `rewardkit score` writes: `{id, reward, components}`):
 * the reward, or `components[source]`. A failed row (reward or component null) keeps its id with a
 * null score, so that it is counted as unscored; a row with no id is named and left out.
 */
export async function readScoredRows(file: string, source: string | undefined): Promise<ReadRows<ScoredRow>> {
  const problems: string[] = [];
  const rows: ScoredRow[] = [];
  const seen = new Set<string>();
  for await (const { value, place } of jsonObjects(file, problems)) {
    const id = idOf(value);
    if (id === undefined) {
      problems.push(
        `${place}:id: expected a non-empty string or a number, got ${JSON.stringify(value.id) ?? 'nothing'}`,
      );
      continue;
    }
    const components = value.components;
    if (source !== undefined && typeof components === 'object' && components !== null) {
      for (const name of Object.keys(components)) seen.add(name);
    }
    const raw =
      source === undefined ? value.reward : (components as Record<string, unknown> | undefined)?.[source];
    const field = source === undefined ? 'reward' : `components.${source}`;
    if (raw !== null && raw !== undefined && (typeof raw !== 'number' || !Number.isFinite(raw))) {
      problems.push(`${place}:${field}: expected a number, got ${JSON.stringify(raw)}`);
      continue;
    }
    if (raw === undefined && !('error' in value) && value.status !== 'failed') {
      problems.push(`${place}:${field}: missing`);
      continue;
    }
    rows.push({ id, score: raw ?? null, place, field });
  }
  if (source !== undefined && rows.length > 0 && seen.size > 0 && !seen.has(source))
    throw new RewardKitError(
      'RK_USAGE',
      `--source "${source}": no row of ${nameOf(file)} has that component (components: ${[...seen].join(', ')})`,
    );
  return { rows, problems };
}

/** A sample and where it was read. */
export interface PlacedSample {
  readonly sample: Sample;
  readonly place: string;
}

/** Every sample of an input file; a malformed row stops the run before any scoring, named by file:line. */
export async function readPlacedSamples(input: string): Promise<PlacedSample[]> {
  const { parseSampleRow, readJsonlLines } = await import('../dataset/index.js');
  const name = nameOf(input);
  const samples: PlacedSample[] = [];
  const errors: string[] = [];
  for await (const line of readJsonlLines(input === '-' ? process.stdin : input)) {
    if (line.text === undefined) {
      errors.push(`${name}:${line.line}: ${line.error}`);
      continue;
    }
    const parsed = parseSampleRow(line.text, { file: name, line: line.line });
    if (parsed.ok) samples.push({ sample: parsed.sample, place: `${name}:${line.line}` });
    else errors.push(...parsed.errors);
  }
  if (errors.length > 0) throw new RewardKitError('RK_USAGE', `bad input rows:\n  ${errors.join('\n  ')}`);
  if (samples.length === 0) throw new RewardKitError('RK_USAGE', `no samples in ${name}`);
  return samples;
}
