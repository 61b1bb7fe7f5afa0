import { RewardKitError } from '../core/index.js';
import { type FieldPath, lookUpField, parseFieldPath } from './field-path.js';

/** `target=source`: where a field of the command's row comes from in the dataset's row. */
export interface FieldMapping {
  /** As written, for messages: `reference=reward_model.ground_truth`. */
  readonly text: string;
  /** The field set in the row, dotted for nested ones (`metadata.step`). */
  readonly target: readonly string[];
  /** Tried in order; the first found wins (`completion[-1].content|completion`). */
  readonly sources: readonly FieldPath[];
  /** A trailing `?`: when no source is found the row goes on without it, instead of failing. */
  readonly optional: boolean;
}

/** Parses one `--map target=source[|source…][?]`; errors name the flag and show the syntax. */
export function parseFieldMapping(text: string, flag = '--map'): FieldMapping {
  const at = text.indexOf('=');
  const target = text.slice(0, at).trim();
  let source = text.slice(at + 1).trim();
  if (at <= 0 || source === '' || !/^[A-Za-z_][\w]*(\.[A-Za-z_][\w]*)*$/.test(target)) {
    throw new RewardKitError(
      'RK_USAGE',
      `${flag} "${text}": expected target=source, e.g. reference=reward_model.ground_truth or response=responses[0]`,
    );
  }
  if (target.split('.').includes('__proto__')) {
    // Assigning it would set the row's prototype instead of a field.
    throw new RewardKitError('RK_USAGE', `${flag} "${text}": "__proto__" cannot be a target field`);
  }
  const optional = source.endsWith('?');
  if (optional) source = source.slice(0, -1);
  const sources = source.split('|').map((s) => parseFieldPath(s.trim(), `${flag} "${text}"`));
  return { text, target: target.split('.'), sources, optional };
}

/**
 * Mappings in force: later ones replace earlier ones for the same target, so `--map` overrides a
 * `--format` preset field by field. At most one may expand a list (`[*]`).
 */
export function combineFieldMappings(mappings: readonly FieldMapping[]): FieldMapping[] {
  const byTarget = new Map<string, FieldMapping>();
  for (const mapping of mappings) byTarget.set(mapping.target.join('.'), mapping);
  const combined = [...byTarget.values()];
  const expanding = combined.filter((m) => m.sources.some((s) => s.steps.some((step) => 'each' in step)));
  if (expanding.length > 1) {
    throw new RewardKitError(
      'RK_USAGE',
      `--map: only one field may expand a list with [*] (${expanding.map((m) => m.text).join(', ')})`,
    );
  }
  return combined;
}

/** A row after mapping: its fields, and its place among the rows one dataset row expanded into. */
export interface MappedFields {
  readonly fields: Record<string, unknown>;
  /** Set when a `[*]` mapping expanded the row: the element's 0-based index. */
  readonly element?: number;
}

/**
 * Builds the command's rows from one dataset row: the row's own fields, with each mapped target set
 * from its source. A required source that is missing fails the row, naming the field and the
 * mapping; a `[*]` source gives one row per element. A mapped `reference` that is a number (or a
 * list of numbers) is read as its decimal text, as the datasets that store numeric answers mean it;
 * one that is an object (code tests) as its JSON text.
 */
export function applyFieldMappings(
  row: unknown,
  mappings: readonly FieldMapping[],
): { ok: true; rows: MappedFields[] } | { ok: false; errors: string[] } {
  const base: Record<string, unknown> =
    row !== null && typeof row === 'object' && !Array.isArray(row)
      ? { ...(row as Record<string, unknown>) }
      : {};
  const errors: string[] = [];
  const set: { mapping: FieldMapping; values: readonly unknown[]; each: boolean }[] = [];
  for (const mapping of mappings) {
    let missing: string[] = [];
    let hit: { values: readonly unknown[]; each: boolean } | undefined;
    for (const source of mapping.sources) {
      const lookup = lookUpField(row, source);
      if (lookup.found) {
        hit = lookup;
        break;
      }
      if (!missing.includes(lookup.missing)) missing = [...missing, lookup.missing];
    }
    if (hit === undefined) {
      if (!mapping.optional) {
        errors.push(`field "${missing.join('" or "')}": missing (--map ${mapping.text})`);
      }
      continue;
    }
    if (hit.each && hit.values.length === 0) {
      errors.push(
        `field "${mapping.sources.map((s) => s.text).join('|')}": the list is empty, so the row has nothing to expand (--map ${mapping.text})`,
      );
      continue;
    }
    set.push({ mapping, ...hit });
  }
  if (errors.length > 0) return { ok: false, errors };
  const expanding = set.find((s) => s.each);
  const count = expanding ? expanding.values.length : 1;
  const rows: MappedFields[] = [];
  for (let k = 0; k < count; k++) {
    // setPath copies each object it descends into, so rows expanded from one record share nothing they change.
    const fields = { ...base };
    for (const { mapping, values, each } of set) {
      const value = each ? values[k] : values[0];
      setPath(fields, mapping.target, isReference(mapping) ? referenceText(value) : value);
    }
    rows.push(expanding ? { fields, element: k } : { fields });
  }
  return { ok: true, rows };
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  const last = path.length - 1;
  for (let i = 0; i < last; i++) {
    const key = path[i] as string;
    const next = Object.hasOwn(node, key) ? node[key] : undefined;
    const copy: Record<string, unknown> =
      next === null || typeof next !== 'object' || Array.isArray(next) ? {} : { ...next };
    node[key] = copy;
    node = copy;
  }
  node[path[last] as string] = value;
}

function isReference(mapping: FieldMapping): boolean {
  return mapping.target.length === 1 && mapping.target[0] === 'reference';
}

function referenceText(value: unknown): unknown {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  // A code row's tests as an object (verl's ground_truth written out as JSON rather than its text).
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) return JSON.stringify(value);
  if (Array.isArray(value))
    return value.map((v) => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v));
  return value;
}
