import type { SourceKind } from './source-kind.js';
import { claimsSource } from './sources/claims-source.js';
import { countdownSource } from './sources/countdown-source.js';
import { evpvSource } from './sources/evpv-source.js';
import { medicalRubricSource } from './sources/medical-rubric-source.js';
import { panelSource } from './sources/panel-source.js';
import { proxyGrmSource } from './sources/proxy-grm-source.js';
import { rubricSource } from './sources/rubric-source.js';
import { bindingKinds } from './sources/skill-rm-bindings.js';
import { skillRmSource } from './sources/skill-rm-source.js';
import { toolPlanSource } from './sources/tool-plan-source.js';

/** Source kinds by name: the spec's `kind` field looks them up here, never in a chain of ifs. */
export type SourceKindRegistry = ReadonlyMap<string, SourceKind>;

/**
 * The built-in source kinds: the verifiers and pairwise judges a skill resource can bind to
 * (listed once, in `skill-rm-bindings.ts`, which `skill_rm` itself imports), then the judges that
 * read more than a response and its reference, then the panel, which runs any of those judges.
 */
export const sourceKinds: SourceKindRegistry = new Map<string, SourceKind>([
  ...bindingKinds,
  ...[
    countdownSource,
    medicalRubricSource,
    rubricSource,
    toolPlanSource,
    claimsSource,
    evpvSource,
    skillRmSource,
    proxyGrmSource,
  ].map((kind) => [kind.kind, kind as unknown as SourceKind] as const),
  // Members are looked up when a spec is parsed or compiled, after this map exists.
  ['panel', panelSource(() => sourceKinds) as unknown as SourceKind],
]);
