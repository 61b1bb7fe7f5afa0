import type { Command } from 'commander';
import type { CommandState } from '../command-state.js';
import { DATASET_INPUT_HELP, requireDatasetInput } from '../dataset-input-flags.js';
import { runSpecName } from '../run-spec-name.js';
import { addScoringOptions, runScoring, type ScoringFlags } from '../scoring-run.js';

interface ScoreFlags extends ScoringFlags {
  spec: string;
}

export function registerScoreCommand(score: Command, state: CommandState): void {
  addScoringOptions(
    score.option('-s, --spec <file|preset>', 'reward spec file (YAML/JSON) or built-in preset', 'default'),
    {
      code: true,
    },
  )
    .addHelpText(
      'after',
      `
Input rows: {"id"?, "response", "prompt"?, "reference"?, "data_source"?, "group"?, "metadata"?}
  (prompt: text or chat messages [{role, content}], kept as messages). A malformed row is not dropped: it is written as {"status": "failed", "reward": null,
  "errors": ["file:line: field ...: ..."]} and counted in the summary; the exit code is then 3.
Resume: re-running with the same --output skips ids already written there.
${DATASET_INPUT_HELP}

Examples:
  rewardkit score --spec math --input gsm8k.jsonl --output scored.jsonl
  rewardkit score --spec math --format verl --input math_generations.parquet --output scored.parquet
  rewardkit score --spec math --format verl-dump --input rollout_dir/120.jsonl --output step120.jsonl
  rewardkit score --spec my-spec.yaml --input rollouts.jsonl --output - --store none
  rewardkit score --spec writing.yaml --models models.yaml --input drafts.jsonl --output judged.jsonl

Models file (for judge sources such as "genrm"; keys come from the environment):
  models:
    judge: {model: Qwen3-32B, base_url: http://localhost:8000/v1, api_key_env: JUDGE_KEY}`,
    )
    .action(async (flags: ScoreFlags) => {
      requireDatasetInput(flags.input);
      const { loadSpec } = await import('../../spec/index.js');
      const spec = loadSpec(flags.spec);
      await runScoring(spec, runSpecName(spec, flags.spec), flags, state);
    });
}
