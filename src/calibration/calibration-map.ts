import { z } from 'zod';
import { applyIsotonic } from './isotonic-fit.js';
import { applyPlatt } from './platt-fit.js';

/** Where a map came from: how many labelled points, and which scores. */
const FittedOnSchema = z.looseObject({
  /** Labelled points the map was fitted on. */
  n: z.number().int().positive(),
  /** The component the scores were read from (a source name), or absent for the reward. */
  source: z.string().optional(),
  /** The spec (or scores file) that produced the scores. */
  spec: z.string().optional(),
});

const finite = z.number().finite();

const IsotonicMapSchema = z.strictObject({
  version: z.literal(1),
  method: z.literal('isotonic'),
  fitted_on: FittedOnSchema,
  /** Knots of the non-decreasing map: x strictly increasing, y non-decreasing. */
  knots: z
    .strictObject({ x: z.array(finite).min(1), y: z.array(finite).min(1) })
    .superRefine((knots, ctx) => {
      if (knots.x.length !== knots.y.length)
        ctx.addIssue({
          code: 'custom',
          path: ['y'],
          message: `expected ${knots.x.length} values like x, got ${knots.y.length}`,
        });
      for (let i = 1; i < knots.x.length; i++) {
        if ((knots.x[i] as number) <= (knots.x[i - 1] as number))
          ctx.addIssue({ code: 'custom', path: ['x', i], message: 'expected x to increase strictly' });
        if ((knots.y[i] as number) < (knots.y[i - 1] as number))
          ctx.addIssue({ code: 'custom', path: ['y', i], message: 'expected y never to decrease' });
      }
    }),
});

const PlattMapSchema = z.strictObject({
  version: z.literal(1),
  method: z.literal('platt'),
  fitted_on: FittedOnSchema,
  /** calibrated = 1 / (1 + exp(-(a·score + b))) */
  a: finite,
  b: finite,
});

/** A fitted calibration map, as `rewardkit calibrate` writes it and a spec source's `calibration` reads it. */
export const CalibrationMapSchema = z.discriminatedUnion('method', [IsotonicMapSchema, PlattMapSchema]);
export type CalibrationMap = z.output<typeof CalibrationMapSchema>;

/** A raw score passed through a calibration map. */
export function applyCalibration(map: CalibrationMap, score: number): number {
  return map.method === 'isotonic' ? applyIsotonic(map.knots, score) : applyPlatt(map, score);
}
