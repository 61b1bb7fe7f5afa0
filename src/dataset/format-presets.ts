import { type FieldMapping, parseFieldMapping } from './field-mapping.js';

/**
 * Named field mappings for the layouts trainers write, so their files are read as they are. Each is
 * a list of `--map` entries; a `--map` given with `--format` replaces the preset's entry for the
 * same target. Checked against verl b178a3c (examples/data_preprocess, trainer/main_generation.py,
 * RayPPOTrainer._dump_generations), OpenRLHF 3c3be62 (--data.input_key/output_key/label_key) and
 * TRL's dataset formats (prompt/completion, conversational or not).
 */
export const FORMAT_PRESETS = {
  /**
   * verl's RL parquet (`data_source`, `prompt` as chat messages, `reward_model.ground_truth`,
   * `extra_info`) with main_generation's `responses`, one sample per response, grouped by prompt.
   * A search-R1 ground truth (`{"target": [...]}`) gives its targets; a code row's keeps its tests
   * (the JSON the `code` source reads). The whole ground truth is also kept as
   * `metadata.ground_truth`, for checks that need more of it than a target (countdown's numbers).
   */
  verl: [
    'id=extra_info.index?',
    'response=responses[*]|response',
    'reference=reward_model.ground_truth.target|reward_model.ground_truth?',
    'metadata.ground_truth=reward_model.ground_truth?',
    'metadata.extra_info=extra_info?',
  ],
  /** verl's rollout dump (`trainer.rollout_data_dir`, one `<step>.jsonl` per step): `input`, `output`, `gts`, `score`, `step`. */
  'verl-dump': [
    'prompt=input',
    'response=output',
    'reference=gts?',
    'metadata.step=step?',
    'metadata.verl_score=score?',
  ],
  /** OpenRLHF's dataset keys at their defaults: `input` (text or chat messages), `output`, `label`. */
  openrlhf: ['prompt=input', 'response=output', 'reference=label?'],
  /** TRL's prompt–completion format, standard or conversational (the completion's last message), with the reference under `solution`, `ground_truth` or `answer`. */
  trl: [
    'prompt=prompt?',
    'response=completion[-1].content|completion',
    'reference=solution|ground_truth|answer?',
  ],
} as const satisfies Record<string, readonly string[]>;

export type FormatPresetName = keyof typeof FORMAT_PRESETS;
export const FORMAT_PRESET_NAMES = Object.keys(FORMAT_PRESETS) as FormatPresetName[];

/** The preset's mappings, parsed. */
export function formatPresetMappings(name: FormatPresetName): FieldMapping[] {
  return FORMAT_PRESETS[name].map((text) => parseFieldMapping(text, `--format ${name}`));
}
