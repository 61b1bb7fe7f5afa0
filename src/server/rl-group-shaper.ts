import { z } from 'zod';
import { grpoAdvantages } from '../rl/index.js';
import type { GroupShaper } from './group-shaper.js';
import { apiIssues } from './zod-issues.js';

const GrpoOptionsSchema = z.strictObject({
  std: z.enum(['unbiased', 'population', 'none']).default('unbiased'),
  eps: z.number().nonnegative().default(1e-6),
});

/** The group methods of the rl module behind the server's `GroupShaper` interface. */
export function createRlGroupShaper(): GroupShaper {
  return {
    methods: ['grpo'],
    prepare(method, options) {
      if (method !== 'grpo') {
        return {
          ok: false,
          issues: [{ path: 'method', message: `unknown group method "${method}" (known: grpo)` }],
        };
      }
      const parsed = GrpoOptionsSchema.safeParse(options);
      if (!parsed.success) {
        return {
          ok: false,
          issues: apiIssues(parsed.error).map((i) => ({ ...i, path: `options.${i.path}` })),
        };
      }
      return {
        ok: true,
        shape: async (input) => {
          const failed = input.rewards.flatMap((r, i) => (r === null ? [i] : []));
          const scored = input.rewards.filter((r): r is number => r !== null);
          const advantages = scored.length > 0 ? grpoAdvantages(scored, parsed.data) : [];
          let k = 0;
          return {
            advantages: input.rewards.map((r) => (r === null ? 0 : (advantages[k++] as number))),
            ...(failed.length > 0 && { failed }),
          };
        },
      };
    },
  };
}
