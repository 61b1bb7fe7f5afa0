import { resolve } from 'node:path';
import type { Command } from 'commander';
import { verdictLine } from '../../lab/claim-verdict.js';
import { parseLabConfig } from '../../lab/model-config.js';
import { RLVR_DEFAULTS, rlvrOptionsSchema } from '../../lab/rlvr-options.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { addLabOptions, labOptions } from './lab-flags.js';
import { labProgress } from './lab-progress.js';
import { loadLab } from './load-lab.js';

const HELP: Record<string, string> = {
  task: 'task: addition, sorting, countdown',
  methods: 'RL methods: grpo, etr, clipo, brpo, afrl',
  reward:
    'training rewards, each method trained once per reward: verifier (the task spec), naive (the reference appears anywhere in the response, even inside a longer number), or both (naive,verifier: the paired hacking verdict)',
  rewardTransport:
    'where rewards are computed: in-process, http (rewardkit serve’s app on a loopback port, POST /v1/rewards) or both (in-process trains; any disagreement fails the run)',
  answerFormat:
    'how answers are written: hash (#### 42) or boxed (\\boxed{42}; addition and sorting, not afrl)',
  formatWeight:
    'weight of a format reward (a regex source: the response is the answer line and nothing else) in the built-in spec, beside the check (1 − w); 0: none',
  digits: 'addition: digits per operand',
  completionRoom:
    'characters a completion may hold past the longest answer line and its end token (room to list candidates)',
  width: 'model width',
  heads: 'attention heads (must divide --width)',
  depth: 'layers (pre-norm)',
  sftSteps: 'SFT warm-start steps (teacher forcing on prompt → answer line)',
  sftBatch: 'SFT examples per step',
  sftLr: 'SFT peak learning rate',
  rlSteps: 'RL steps per method and seed',
  prompts: 'prompts per RL step',
  group: 'completions sampled per prompt (G)',
  temperature: 'sampling temperature (the policy is softmax(logits / T))',
  lr: 'RL learning rate (AdamW)',
  klCoef: 'β of the k3 KL penalty to the frozen SFT reference (0: none)',
  evalExamples: 'held-out tasks (greedy accuracy)',
  evalEvery: 'held-out evaluation every n RL steps',
  seeds: 'seeds: each trains its own SFT start and every method from it',
  checkpointEvery: 'checkpoint an RL run every n steps',
  clipoWarmup: 'CLIPO: RL steps during which only its contrastive head trains (rewards unshaped)',
  clipoLambda: 'CLIPO: λ of the contrastive penalty r_con = max(−λ·l, −0.5) on correct rollouts',
  afrlLambda: 'AFRL: λ of the SFT auxiliary loss on gold answer-first sequences',
};

/** `rewardkit lab rlvr`: RL with verifiable rewards on a CPU — SFT warm start, then GRPO, ETR, CLIPO, BRPO, AFRL. */
export function registerLabRlvrCommand(lab: Command, state: CommandState): void {
  const command = lab
    .command('rlvr')
    .description(
      'RLVR on a CPU: a tiny policy, SFT warm start, GRPO/ETR/CLIPO/BRPO/AFRL with rewards through the spec evaluator',
    );
  addLabOptions(command, RLVR_DEFAULTS, HELP)
    .option(
      '--spec <file>',
      'verifier spec for the task (default: the built-in one); probed on a reference answer first',
    )
    .option(
      '-o, --out <dir>',
      'output folder: metrics.jsonl, summary.json, report.html, runs/ (checkpoints)',
      'lab-runs/rlvr',
    )
    .option('--no-progress', 'no progress bar')
    .addHelpText(
      'after',
      `
Tasks: "add 12+34" → "#### 46" (math verifier), "sort 3 1 2" → "#### 1 2 3" (reference, exact),
"reach 46 with 3 7 25" → "#### 25+3*7" (countdown). Every reward goes through the spec evaluator;
a rollout the spec fails on is recorded and left out of the update.
Methods: grpo (fixed clip 0.2), etr (elastic per-rollout clip), clipo (GRPO on r_ver + a
contrastive penalty from a head over the policy's pooled final hidden states), brpo (+1/−1 against a
seeded reference rollout; the pairwise judge is programmatic: the higher verifier score wins, a tie
is a loss), afrl (answer first: "#### 42 as 17+25", the explanation checked for consistency with the
answer; its own SFT start on that format, stepwise advantages, L_GRPO + λ·L_SFT).
--reward-transport http sends each step's rollouts to rewardkit serve's app (started in this process
on 127.0.0.1, port 0) as one POST /v1/rewards per spec; a 5xx or a refused connection fails those
rollouts (recorded, left out, never scored 0). With both, each step is scored both ways, the
in-process rewards train, and a disagreement is recorded in summary.json (transport.disagreements)
and exits 1. metrics.jsonl has step_ms, reward_ms_* and reward_share_* (the reward's share of step
time) per transport. Rerunning with the same --out resumes. One verdict line per claim on stdout:
held, not held, inconclusive (its 95% interval over seeds spans 0) or too small (below the
documented minimum, or too few seeds), with the reason.`,
    )
    .action(async (flags: { out: string; progress: boolean; spec?: string }) => {
      const options = parseLabConfig(rlvrOptionsSchema, labOptions(command, RLVR_DEFAULTS));
      const lab = await loadLab();
      await lab.loadTf();
      const out = resolve(flags.out);
      const progress = labProgress('rlvr', flags.progress);
      let result: Awaited<ReturnType<typeof lab.runRlvrExperiment>>;
      try {
        result = await lab.runRlvrExperiment(options, out, {
          ...(flags.spec === undefined ? {} : { specFile: resolve(flags.spec) }),
          onProgress: (done, total) => progress.update(done, total),
          httpServer: async (text, file) => {
            const { startRlvrRewardServer } = await import('../rlvr-reward-server.js');
            const server = await startRlvrRewardServer(text, file);
            return lab.httpBatchReward(server.url, server.close);
          },
        });
      } finally {
        progress.stop();
      }
      await lab.writeLabReport(out, result.report);
      for (const verdict of result.report.verdicts) process.stdout.write(`${verdictLine(verdict)}\n`);
      process.stderr.write(
        `rewardkit lab rlvr: ${result.stepsTrained} RL steps trained, ${result.stepsReadBack} read back; report ${out}/report.html\n`,
      );
      if (result.disagreements > 0) {
        process.stderr.write(
          `rewardkit lab rlvr: error: ${result.disagreements} rewards differ between in-process and HTTP (summary.json: runs[].disagreements)\n`,
        );
        state.exitCode = EXIT.error;
        return;
      }
      state.exitCode = EXIT.ok;
    });
}
