import { existsSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { RewardKitError } from '../core/index.js';
import {
  combineFieldMappings,
  type FieldMapping,
  FORMAT_PRESET_NAMES,
  type FormatPresetName,
  formatPresetMappings,
  parseFieldMapping,
} from '../dataset/index.js';

/** The flags that say how to read a dataset: which split, and where each field comes from. */
export interface DatasetInputFlags {
  format?: FormatPresetName;
  map?: FieldMapping[];
  split?: string;
}

/** The `--help` lines these flags share. */
export const DATASET_INPUT_HELP = `
Input: JSONL, a JSON array (.json), Parquet (.parquet, read one row group at a time, nested
columns as objects and lists) or a Hugging Face dataset folder (Parquet/JSONL/JSON shards at its
top, under data/ or in split folders; --split picks one when it has several). "-" reads JSONL
from stdin. Rows without an id are keyed by their place (line:N, row:N, shard:row:N), which
resume finds again.
Fields: --format ${FORMAT_PRESET_NAMES.join('|')} reads a trainer's layout as it is;
--map target=source (repeatable) takes a field from elsewhere in the row, e.g.
  --map id=extra_info.index --map reference=reward_model.ground_truth --map response=responses[0]
A source may be several paths tried in order (a|b), end in "?" (optional), or expand a list into
one row per element (responses[*]: ids id#0, id#1, ... grouped by the row's id). A row missing a
mapped field fails with file:row: field, and the run goes on.`;

/** Adds --format, --map and --split to a command that reads a dataset. */
export function addDatasetInputOptions(command: Command): Command {
  return command
    .addOption(
      new Option('--format <preset>', "read a trainer's layout: named field mappings (see below)").choices(
        FORMAT_PRESET_NAMES,
      ),
    )
    .addOption(
      new Option('--map <target=source>', 'take a field from elsewhere in each row (repeatable)').argParser(
        (value: string, previous: FieldMapping[] = []) => {
          try {
            return [...previous, parseFieldMapping(value)];
          } catch (error) {
            throw new InvalidArgumentError((error as Error).message);
          }
        },
      ),
    )
    .option('--split <name>', 'the split to read from a dataset folder that has several');
}

/** The mappings in force: the preset's, with each `--map` replacing the preset's entry for its target. */
export function datasetMappings(flags: DatasetInputFlags): FieldMapping[] {
  return combineFieldMappings([
    ...(flags.format === undefined ? [] : formatPresetMappings(flags.format)),
    ...(flags.map ?? []),
  ]);
}

/** The `scoreFile`/`mapJsonlRows` options these flags give, for spreading into their calls. */
export function datasetInputOptions(flags: DatasetInputFlags): {
  mappings: FieldMapping[];
  split?: string;
} {
  return { mappings: datasetMappings(flags), ...(flags.split !== undefined && { split: flags.split }) };
}

/** Fails before any other work (a store, models) when the input is missing. */
export function requireDatasetInput(input: string): void {
  if (input !== '-' && !existsSync(input))
    throw new RewardKitError('RK_USAGE', `Input file not found: ${input}`);
}

/**
 * Rows to expect, for a progress bar: Parquet footers, or a count of a JSONL file's lines;
 * undefined when unknown, and when a `[*]` mapping makes several rows of one.
 */
export async function inputTotal(flags: DatasetInputFlags & { input: string }): Promise<number | undefined> {
  const { input, split } = flags;
  if (datasetMappings(flags).some((m) => m.sources.some((s) => s.steps.some((step) => 'each' in step)))) {
    return undefined;
  }
  try {
    const { countJsonlLines, openDataset, datasetShards } = await import('../dataset/index.js');
    const shards = datasetShards(input, split);
    const only = shards[0];
    if (shards.length === 1 && only?.format === 'jsonl') return await countJsonlLines(only.path);
    return await openDataset(input, split === undefined ? {} : { split }).count();
  } catch {
    return undefined;
  }
}

/** Only `score` writes Parquet (RewardResult has a fixed schema); elsewhere a `.parquet` output would be JSONL under a Parquet name. */
export function refuseParquetOutput(command: string, output: string | undefined): void {
  if (output?.toLowerCase().endsWith('.parquet')) {
    throw new RewardKitError(
      'RK_USAGE',
      `--output ${output}: ${command} writes JSONL; Parquet output is offered by rewardkit score (name the file .jsonl)`,
    );
  }
}
