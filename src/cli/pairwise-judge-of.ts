import { RewardKitError } from '../core/index.js';
import type { PairwiseJudge } from '../judges/index.js';
import type { ChatModel } from '../llm/index.js';
import { pairwiseJudgeKinds, sourceKinds } from '../spec/index.js';
import { createCodeSandbox } from '../verify/code/index.js';

/** The judge kinds `--judge` may name where a pair is judged (bench, judge pairwise). */
export const pairwiseJudgeNames = (): string[] => [...pairwiseJudgeKinds(sourceKinds).keys()];

/**
 * The pairwise judge of the kind `--judge` names, over the command's one (cached) judge model,
 * with the kind's params (`params` holds what the command's flags set; `model` names the model).
 * A param the kind does not take is refused naming it.
 */
export function pairwiseJudgeOf(
  kindName: string,
  model: ChatModel,
  params: Record<string, unknown>,
  flag = '--judge',
): PairwiseJudge {
  const kind = pairwiseJudgeKinds(sourceKinds).get(kindName);
  if (!kind) {
    throw new RewardKitError(
      'RK_USAGE',
      `${flag}: unknown judge "${kindName}" (known: ${pairwiseJudgeNames().join(', ')})`,
    );
  }
  const parsed = kind.params.safeParse({ model: 'judge', ...params });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new RewardKitError(
      'RK_USAGE',
      `${flag} ${kindName}: ${issue?.path.join('.') || 'params'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  let sandbox: ReturnType<typeof createCodeSandbox> | undefined;
  return kind.pairwise(parsed.data, {
    model: () => model,
    codeSandbox: () => (sandbox ??= createCodeSandbox()),
  });
}
