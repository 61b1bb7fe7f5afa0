import { issuesOf, promptText } from '../core/index.js';
import type { PairwiseJudge } from '../judges/index.js';
import { GROUP_METHOD_NAMES, groupMethod, type StateAccess, shapeGroup } from '../rl/index.js';
import type { GroupShaper, GroupShapingInput } from './group-shaper.js';

export interface RlGroupShaperDeps {
  /** Where CLIPO heads, RFN statistics and Tri-Factor EMAs live (the store). */
  readonly state?: StateAccess;
  /** BRPO's pairwise judge (`--group-judge-model`). */
  readonly judge?: PairwiseJudge;
}

/**
 * The row a group method reads, built from the scored group: `rewards` (null for a failed
 * sample), `prompt` and `responses` (BRPO), `hidden_states` (CLIPO), and `dims` — each sample's
 * component scores in spec order (RFN, Tri-Factor; null when the sample failed or lacks one).
 * Fields the request's group carries itself (`dims`, `step_rewards`, `correct`, …) win.
 */
export function groupMethodRow(input: GroupShapingInput): Record<string, unknown> {
  const rewards = input.results.map((r) => r.reward);
  const names = Object.keys(input.results.find((r) => r.status === 'ok')?.components ?? {});
  const dims = input.results.map((r) => {
    if (r.reward === null || names.length === 0) return null;
    const vector = names.map((n) => r.components[n]);
    return vector.every((v): v is number => typeof v === 'number') ? vector : null;
  });
  return {
    group: input.group,
    rewards,
    prompt: input.samples[0] ? promptText(input.samples[0]) : '',
    responses: input.samples.map((s, i) => (rewards[i] === null ? null : s.response)),
    dims,
    ...(input.hidden_states && { hidden_states: input.hidden_states }),
    ...input.extras,
  };
}

/** The rl module's group methods (`shapeGroup`) behind the server's `GroupShaper` interface. */
export function createRlGroupShaper(deps: RlGroupShaperDeps = {}): GroupShaper {
  return {
    methods: GROUP_METHOD_NAMES,
    prepare(method, options) {
      if (!(GROUP_METHOD_NAMES as readonly string[]).includes(method)) {
        return {
          ok: false,
          issues: [
            {
              code: 'custom',
              path: 'method',
              message: `unknown group method "${method}" (known: ${GROUP_METHOD_NAMES.join(', ')})`,
            },
          ],
        };
      }
      if (method === 'brpo' && !deps.judge) {
        return {
          ok: false,
          issues: [
            {
              code: 'custom',
              path: 'method',
              message: 'brpo needs a pairwise judge: start the server with --group-judge-model <name>',
            },
          ],
        };
      }
      const parsed = groupMethod(method).optionsSchema.safeParse(options);
      if (!parsed.success) {
        return {
          ok: false,
          issues: issuesOf(parsed.error, 'body').map((i) => ({ ...i, path: `options.${i.path}` })),
        };
      }
      return {
        ok: true,
        shape: (input, context) =>
          shapeGroup(method, groupMethodRow(input), options, {
            ...(deps.state && { state: deps.state }),
            ...(deps.judge && { judge: deps.judge }),
            stateKey: context.run,
            seed: context.seed,
            signal: context.signal,
          }),
      };
    },
  };
}
