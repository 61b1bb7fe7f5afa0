import type { z } from 'zod';

/** The attention heads split the width evenly: every schema with a model shape checks it. */
export function checkHeads(o: { width: number; heads: number }, ctx: z.RefinementCtx): void {
  if (o.width % o.heads !== 0)
    ctx.addIssue({
      code: 'custom',
      path: ['heads'],
      message: `${o.heads} does not divide --width ${o.width}`,
    });
}
