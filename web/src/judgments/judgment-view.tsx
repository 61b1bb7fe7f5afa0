import type { ReactElement } from 'react';
import { benchView } from './bench-view';
import { claimsView } from './claims-view';
import { evpvView } from './evpv-view';
import { genrmView } from './genrm-view';
import { medicalRubricView } from './medical-rubric-view';
import { openrsView } from './openrs-view';
import { toolPlanView } from './tool-plan-view';

/** A view of one judge kind's detail: the view, or undefined when the detail is not of its shape. */
type JudgmentRenderer = (detail: unknown) => ReactElement | undefined;

/** The dedicated views, keyed by the evidence's `kind` (the spec source's kind). */
const VIEWS: Readonly<Record<string, JudgmentRenderer>> = {
  medical_rubric: medicalRubricView,
  claims: claimsView,
  evpv: evpvView,
  tool_plan: toolPlanView,
  openrs: openrsView,
  genrm: genrmView,
  bench: benchView,
};

/** The dedicated view of a judgment, or undefined for a kind without one or a detail it does not recognise. */
export function judgmentView(kind: string, detail: unknown): ReactElement | undefined {
  return Object.hasOwn(VIEWS, kind) ? VIEWS[kind]?.(detail) : undefined;
}
