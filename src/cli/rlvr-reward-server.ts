import { createRewardApp, listenRewardApp } from '../server/index.js';
import { createEvaluator, parseSpec } from '../spec/index.js';
import { createCodeSandbox } from '../verify/code/index.js';

/**
 * `rewardkit serve`'s app for one spec, in this process on an ephemeral loopback port: what
 * `lab rlvr --reward-transport http|both` sends its rollouts to. The same app, routes, queue and
 * deadline as `serve`; no store (the lab keeps its own record).
 */
export async function startRlvrRewardServer(
  specText: string,
  file: string,
): Promise<{ url: string; close: () => Promise<void> }> {
  const evaluator = createEvaluator(parseSpec(specText, file), { traces: false });
  const listening = await listenRewardApp(
    createRewardApp({ evaluator, codeSandbox: () => createCodeSandbox() }),
    { port: 0, host: '127.0.0.1' },
  );
  return {
    url: listening.url,
    async close() {
      await listening.close();
      await evaluator.close();
    },
  };
}
