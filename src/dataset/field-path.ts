import { RewardKitError } from '../core/index.js';

/** One step into a row: a key, an index (negative counts from the end), or every element (`[*]`). */
export type FieldStep = { readonly key: string } | { readonly index: number } | { readonly each: true };

/** A parsed path such as `reward_model.ground_truth`, `responses[0]` or `completion[-1].content`. */
export interface FieldPath {
  readonly text: string;
  readonly steps: readonly FieldStep[];
}

const SEGMENT = /^([^.[\]]*)((?:\[(?:-?\d+|\*)\])*)$/;

/** Parses a dotted path with `[n]`, `[-n]` and `[*]` indices; `flag` names the option in errors. */
export function parseFieldPath(text: string, flag: string): FieldPath {
  const steps: FieldStep[] = [];
  for (const segment of text.split('.')) {
    const match = SEGMENT.exec(segment);
    if (!match || (match[1] === '' && match[2] === '')) {
      throw new RewardKitError(
        'RK_USAGE',
        `${flag}: cannot read the field path "${text}" (write keys with dots and indices in brackets: extra_info.index, responses[0], completion[-1].content, responses[*])`,
      );
    }
    if (match[1] !== '') steps.push({ key: match[1] as string });
    for (const [, index] of (match[2] as string).matchAll(/\[(-?\d+|\*)\]/g)) {
      steps.push(index === '*' ? { each: true } : { index: Number(index) });
    }
  }
  return { text, steps };
}

/** What a path finds in a row: the value, or every element under `[*]`, or the step where it ran out. */
export type FieldLookup =
  | { readonly found: true; readonly values: readonly unknown[]; readonly each: boolean }
  | { readonly found: false; readonly missing: string };

/**
 * Follows a path through a row. A null is missing, as a Parquet null cell is an absent value; a
 * `[*]` yields each element (at most one per path).
 */
export function lookUpField(row: unknown, path: FieldPath): FieldLookup {
  let values: unknown[] = [row];
  let each = false;
  let walked = '';
  for (const step of path.steps) {
    const next: unknown[] = [];
    for (const value of values) {
      if ('each' in step) {
        if (!Array.isArray(value)) return { found: false, missing: `${walked || '(row)'} is not a list` };
        next.push(...value);
      } else if ('index' in step) {
        const item = Array.isArray(value) ? value.at(step.index) : undefined;
        if (item === undefined || item === null) return { found: false, missing: `${walked}[${step.index}]` };
        next.push(item);
      } else {
        // Own keys only: `constructor` or `__proto__` must not find what every object inherits.
        const item =
          value !== null &&
          typeof value === 'object' &&
          !Array.isArray(value) &&
          Object.hasOwn(value, step.key)
            ? (value as Record<string, unknown>)[step.key]
            : undefined;
        const at = walked === '' ? step.key : `${walked}.${step.key}`;
        if (item === undefined || item === null) return { found: false, missing: at };
        next.push(item);
      }
    }
    if ('each' in step) each = true;
    walked +=
      'each' in step
        ? '[*]'
        : 'index' in step
          ? `[${step.index}]`
          : walked === ''
            ? step.key
            : `.${step.key}`;
    values = next;
  }
  return { found: true, values, each };
}
