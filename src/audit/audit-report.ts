import { z } from 'zod';
import type { AuditResult } from './run-audit.js';

const Interval = z.tuple([z.number(), z.number()]);

const EstimateSchema = z.union([
  z.object({ value: z.number(), ci: Interval, n: z.number().int(), reason: z.null() }),
  z.object({ value: z.null(), ci: z.null(), n: z.number().int(), reason: z.string() }),
]);

const AssociationSchema = z.object({
  n: z.number().int(),
  pearson: EstimateSchema,
  spearman: EstimateSchema,
  mi: z.number().nullable(),
  mi_ci: Interval.nullable(),
  mi_reason: z.string().nullable(),
  mi_method: z.enum(['plug-in-miller-madow', 'club-upper-bound']),
});

/** audit.json, as `rewardkit audit` writes it (docs/audit.md, "audit.json"). */
export const AuditReportSchema = z.object({
  spec: z.string(),
  samples: z.number().int(),
  scored: z.number().int(),
  failed: z.array(z.object({ id: z.string(), reasons: z.array(z.string()) })),
  attributes: z.array(
    z.object({
      name: z.string(),
      ...AssociationSchema.shape,
      by_source: z.record(z.string(), AssociationSchema),
    }),
  ),
  probes: z.array(
    z.object({
      name: z.string(),
      applied: z.number().int(),
      moved_share: z.number().nullable(),
      mean_shift: z.number().nullable(),
      ci: Interval.nullable(),
      failed: z.number().int(),
    }),
  ),
});

export type AuditReport = z.output<typeof AuditReportSchema>;

/** The report of a run under the spec's (or judge's) name: everything but the per-row data, parsed so a drift from the documented shape fails here. */
export const auditReport = (spec: string, result: AuditResult): AuditReport =>
  AuditReportSchema.parse({
    spec,
    samples: result.samples,
    scored: result.scored,
    failed: result.failed,
    attributes: result.attributes,
    probes: result.probes,
  });
