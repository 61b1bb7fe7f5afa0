import type { SourceKind } from './source-kind.js';
import { claimsSource } from './sources/claims-source.js';
import { codeSource } from './sources/code-source.js';
import { evpvSource } from './sources/evpv-source.js';
import { genrmSource } from './sources/genrm-source.js';
import { ifevalSource } from './sources/ifeval-source.js';
import { jsonSource } from './sources/json-source.js';
import { lengthSource } from './sources/length-source.js';
import { mathSource } from './sources/math-source.js';
import { medicalRubricSource } from './sources/medical-rubric-source.js';

import { openrsSource } from './sources/openrs-source.js';
import { referenceSource } from './sources/reference-source.js';
import { regexSource } from './sources/regex-source.js';
import { skillRmSource } from './sources/skill-rm-source.js';
import { tagsSource } from './sources/tags-source.js';
import { toolPlanSource } from './sources/tool-plan-source.js';

/** Source kinds by name: the spec's `kind` field looks them up here, never in a chain of ifs. */
export type SourceKindRegistry = ReadonlyMap<string, SourceKind>;

/** The built-in source kinds. */
export const sourceKinds: SourceKindRegistry = new Map<string, SourceKind>(
  [
    mathSource,
    referenceSource,
    ifevalSource,
    codeSource,
    regexSource,
    jsonSource,
    tagsSource,
    lengthSource,
    genrmSource,
    medicalRubricSource,

    openrsSource,
    toolPlanSource,
    claimsSource,
    evpvSource,
    skillRmSource,
  ].map((kind) => [kind.kind, kind as unknown as SourceKind]),
);
