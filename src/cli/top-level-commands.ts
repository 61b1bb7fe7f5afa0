import type { Command } from 'commander';
import type { CommandState } from './command-state.js';

/** Adds a top-level command's arguments, options, subcommands and actions to its `Command`. */
type AddCommand = (command: Command, state: CommandState) => void;

interface TopLevelCommand {
  name: string;
  description: string;
  /** The command's line in `rewardkit --help` once its module is loaded: name, `[options]`, arguments. */
  term: string;
  load: () => Promise<AddCommand>;
}

/**
 * The top-level commands, in `--help` order. A command's module, and all it imports, is loaded only
 * when the command line names the command, so `rewardkit --help` loads none and each command only
 * itself; `term` and `description` are here so that the overview needs no module (program.test.ts
 * checks `term` against each loaded command).
 */
export const TOP_LEVEL_COMMANDS: readonly TopLevelCommand[] = [
  {
    name: 'demo',
    description:
      'The whole system in a few minutes, no key: score the bundled dataset, train a tiny policy with RL on rewardkit’s rewards, write the HTML report.',
    term: 'demo [options]',
    load: async () => (await import('./commands/demo-command.js')).registerDemoCommand,
  },
  {
    name: 'score',
    description: 'Score a JSONL file of samples with a reward spec; write one RewardResult per line.',
    term: 'score [options]',
    load: async () => (await import('./commands/score-command.js')).registerScoreCommand,
  },
  {
    name: 'verify',
    description: 'Run one verifier over a JSONL file and write one JSON result per row.',
    term: 'verify',
    load: async () => (await import('./commands/verify-command.js')).registerVerifyCommand,
  },
  {
    name: 'redteam',
    description:
      'Apply known reward-hacking exploits to each response, re-score them with a spec, and report each exploit’s lift (exit 1 when one lifts the reward).',
    term: 'redteam [options]',
    load: async () => (await import('./commands/redteam-command.js')).registerRedteamCommand,
  },
  {
    name: 'audit',
    description:
      'Audit a reward spec (or a pairwise judge) for bias: how length, format, agreement and stated confidence go with the reward, with intervals, and how far padding, reformatting and flattery move it.',
    term: 'audit [options]',
    load: async () => (await import('./commands/audit-command.js')).registerAuditCommand,
  },
  {
    name: 'calibrate',
    description:
      'Fit a judge’s scores to human labels (isotonic or Platt), report ECE and reliability before and after, and write a calibration map a spec source can apply.',
    term: 'calibrate [options]',
    load: async () => (await import('./commands/calibrate-command.js')).registerCalibrateCommand,
  },
  {
    name: 'judge',
    description: 'Run an LLM judge over a JSONL file and write one verdict per row.',
    term: 'judge',
    load: async () => (await import('./commands/judge-command.js')).registerJudgeCommand,
  },
  {
    name: 'bench',
    description: 'Measure a judge on a benchmark (RewardBench v1/2, JudgeBench, RM-Bench, pairwise JSONL).',
    term: 'bench [options]',
    load: async () => (await import('./commands/bench-command.js')).registerBenchCommand,
  },
  {
    name: 'presets',
    description: 'List the built-in reward spec presets, or print one as YAML to start your own spec from.',
    term: 'presets [name]',
    load: async () => (await import('./commands/presets-command.js')).registerPresetsCommand,
  },
  {
    name: 'spec',
    description: 'Work with reward spec files.',
    term: 'spec',
    load: async () => (await import('./commands/spec-command.js')).registerSpecCommand,
  },
  {
    name: 'skill',
    description:
      'Work with skill packages (SKILL.md, references, resources.yaml): validate, show, apply a patch, evolve from traces.',
    term: 'skill',
    load: async () => (await import('./commands/skill-command.js')).registerSkillCommand,
  },
  {
    name: 'runs',
    description: 'Inspect and export stored scoring runs.',
    term: 'runs',
    load: async () => (await import('./commands/runs-command.js')).registerRunsCommand,
  },
  {
    name: 'view',
    description: 'Inspect the store in a web browser: runs, samples, evidence, judge traces, comparisons.',
    term: 'view [options]',
    load: async () => (await import('./commands/view-command.js')).registerViewCommand,
  },
  {
    name: 'rubrics',
    description:
      'Author QuarkMedBench-style rubrics (generate, validate, export for review, import reviewed), score rubric producers by proxy (quality) and evolve OpenRS meta-rubrics.',
    term: 'rubrics',
    load: async () => (await import('./commands/rubrics-command.js')).registerRubricsCommand,
  },
  {
    name: 'check',
    description:
      '(deprecated: use judge claims --bench-rows) Check answers against their sources (claim checks of RAG answers) and write one result per row.',
    term: 'check',
    load: async () => (await import('./commands/check-command.js')).registerCheckCommand,
  },
  {
    name: 'serve',
    description:
      'Serve rewards over HTTP: a native JSON API, OpenRLHF /get_reward, SandboxFusion /run_code, /healthz and /metrics.',
    term: 'serve [options]',
    load: async () => (await import('./commands/serve-command.js')).registerServeCommand,
  },
  {
    name: 'advantages',
    description: 'Shape groups of rollouts into advantages (GRPO, ETR, BRPO, CLIPO, RFN, Tri-Factor, AFRL).',
    term: 'advantages [options]',
    load: async () => (await import('./commands/advantages-command.js')).registerAdvantagesCommand,
  },
  {
    name: 'evpv',
    description:
      'EVPV: visual premises audited against the image, step rewards gated by their reliability (docs/evpv.md)',
    term: 'evpv',
    load: async () => (await import('./commands/evpv-command.js')).registerEvpvCommand,
  },
  {
    name: 'index',
    description: 'Build and query the embedded BM25 index that self-play and other search agents use.',
    term: 'index',
    load: async () => (await import('./commands/index-command.js')).registerIndexCommand,
  },
  {
    name: 'selfplay',
    description:
      'Search self-play (SSP): a proposer builds questions from seed answers with a search tool, a RAG check verifies them, a solver answers them; writes verified tasks and both rewards.',
    term: 'selfplay [options]',
    load: async () => (await import('./commands/selfplay-command.js')).registerSelfplayCommand,
  },
  {
    name: 'lab',
    description:
      'The lab: tiny transformers trained on the CPU (tfjs WASM) test the direction of the model-side papers at toy scale, verdicts over seeds — SiameseNorm, masked-diffusion variance reduction, GAP, DIR, RLVR with GRPO/ETR (docs/lab.md).',
    term: 'lab',
    load: async () => (await import('./commands/lab-command.js')).registerLabCommand,
  },
];
