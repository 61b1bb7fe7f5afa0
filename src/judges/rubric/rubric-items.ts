import { z } from 'zod';
import type { Rubric } from './rubric-schema.js';

/** One gradable entry of a rubric (a criterion or a checklist item), with the id the judge answers by. */
export interface RubricItem {
  /** `c1`, `c2`, …: in rubric order; names are the user's text and stay inside the rubric block. */
  readonly id: string;
  readonly name: string;
  readonly description: string;
  /** 1 where the rubric gives no weights. */
  readonly weight: number;
}

/** What a grade is in the rubric's mode: its schema, its reading in [0, 1], and how the prompt explains it. */
export interface GradeScale {
  readonly schema: z.ZodType<number | string>;
  readonly normalize: (grade: number | string) => number;
  /** One line for the instructions: which grades exist and what they mean. */
  readonly explain: string;
}

export function rubricItems(rubric: Rubric): RubricItem[] {
  const list = rubric.mode === 'checklist' ? rubric.items : rubric.criteria;
  return list.map((c, i) => ({
    id: `c${i + 1}`,
    name: c.name,
    description: c.description,
    weight: c.weight ?? 1,
  }));
}

const MET = { not_met: 0, partially_met: 0.5, fully_met: 1 } as const;

const scales = new WeakMap<Rubric, GradeScale>();

/**
 * The rubric's grade scale, made once per rubric object: its schema then stays the same object
 * from call to call, so the JSON schema sent with each call is converted once, not per call.
 */
export function gradeScale(rubric: Rubric): GradeScale {
  let scale = scales.get(rubric);
  if (scale === undefined) {
    scale = scaleOf(rubric);
    scales.set(rubric, scale);
  }
  return scale;
}

function scaleOf(rubric: Rubric): GradeScale {
  switch (rubric.mode) {
    case 'criteria':
      return {
        schema: z.number().int().min(0).max(rubric.points),
        normalize: (g) => (g as number) / rubric.points,
        explain: `an integer from 0 (not met at all) to ${rubric.points} (fully met)`,
      };
    case 'checklist':
      return {
        schema: z.enum(['yes', 'no']),
        normalize: (g) => (g === 'yes' ? 1 : 0),
        explain: '"yes" if the response does what the item asks, else "no"',
      };
    case 'likert': {
      const points = Object.keys(rubric.anchors)
        .map(Number)
        .sort((a, b) => a - b);
      const low = points[0] as number;
      const high = points.at(-1) as number;
      return {
        schema: z.number().int().min(low).max(high),
        normalize: (g) => ((g as number) - low) / (high - low),
        explain: `an integer point of the scale, ${low} to ${high}, chosen by its anchor`,
      };
    }
    case 'reference':
      return {
        schema: z.enum(['not_met', 'partially_met', 'fully_met']),
        normalize: (g) => MET[g as keyof typeof MET],
        explain:
          '"fully_met" if the response agrees with the reference on the criterion, "partially_met" if only in part, "not_met" if it conflicts with it or leaves it out',
      };
  }
}
