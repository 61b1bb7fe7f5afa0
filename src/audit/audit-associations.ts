import { type Association, attributeAssociation } from './attribute-association.js';
import type { BootstrapOptions } from './bootstrap-interval.js';

/** One scored sample as the audit sees it: its reward and its attributes (null: not stated). */
export interface AuditRow {
  readonly id: string;
  readonly data_source?: string;
  readonly reward: number;
  readonly attributes: Readonly<Record<string, number | null>>;
}

/** An attribute's association with the reward over all samples, and per data source. */
export interface AttributeAudit extends Association {
  readonly name: string;
  readonly by_source: Readonly<Record<string, Association>>;
}

/** The key of samples that name no data source, when others do. */
export const NO_SOURCE = '(none)';

/**
 * Each attribute's association with the reward, overall and per data source (a bias can hide in
 * one source and be diluted by the others). Attributes are those of the first row, in its order;
 * the per-source split is empty when no row names a source.
 */
export function auditAssociations(
  rows: readonly AuditRow[],
  options: BootstrapOptions = {},
): AttributeAudit[] {
  const names = Object.keys(rows[0]?.attributes ?? {});
  const sources = new Map<string, AuditRow[]>();
  if (rows.some((row) => row.data_source !== undefined))
    for (const row of rows) {
      const key = row.data_source ?? NO_SOURCE;
      sources.set(key, [...(sources.get(key) ?? []), row]);
    }
  const association = (subset: readonly AuditRow[], name: string) =>
    attributeAssociation(
      subset.map((row) => row.attributes[name] ?? null),
      subset.map((row) => row.reward),
      options,
    );
  return names.map((name) => ({
    name,
    ...association(rows, name),
    by_source: Object.fromEntries(
      [...sources]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([source, subset]) => [source, association(subset, name)]),
    ),
  }));
}
