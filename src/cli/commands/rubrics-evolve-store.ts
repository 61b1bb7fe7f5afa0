import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { RewardKitError } from '../../core/index.js';
import {
  type Generation,
  GenerationSchema,
  type GenerationStore,
} from '../../judges/meta-rubric-evolution/index.js';

/** What fixes an evolution's meaning: a rerun with other values would mix two experiments. */
export const EvolutionConfigSchema = z.object({
  version: z.literal(1),
  labelled: z.string(),
  seed_meta_rubric: z.string(),
  domains: z.string(),
  judge: z.string(),
  mutator: z.string(),
  population: z.number(),
  tie_penalty: z.number(),
  held_out: z.number(),
  seed: z.number(),
  sections: z.array(z.string()),
  misjudged: z.number(),
});
export type EvolutionConfig = z.infer<typeof EvolutionConfigSchema>;

const CONFIG = 'evolution.json';
const GENERATIONS = 'generations';
const fileOf = (n: number) => `gen-${String(n).padStart(4, '0')}.json`;

/** Writes whole or not at all, so a killed run never leaves half a generation to resume from. */
function writeAtomically(path: string, text: string) {
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
}

const readJson = (path: string): unknown => {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RewardKitError('RK_INPUT_SCHEMA', `${path}: unreadable: ${(error as Error).message}`);
  }
};

/**
 * Binds `dir` to this evolution's config: a new directory records it; an existing one must hold
 * the same config (every differing field is named), so a rerun continues the same experiment.
 */
export function claimEvolutionDir(dir: string, config: EvolutionConfig): void {
  const path = join(dir, CONFIG);
  if (!existsSync(path)) {
    mkdirSync(join(dir, GENERATIONS), { recursive: true });
    writeAtomically(path, `${JSON.stringify(config, null, 2)}\n`);
    return;
  }
  const stored = EvolutionConfigSchema.safeParse(readJson(path));
  if (!stored.success) throw new RewardKitError('RK_INPUT_SCHEMA', `${path} is not an evolution config`);
  const differ = (Object.keys(config) as (keyof EvolutionConfig)[]).filter(
    (k) => JSON.stringify(stored.data[k]) !== JSON.stringify(config[k]),
  );
  if (differ.length > 0) {
    throw new RewardKitError(
      'RK_USAGE',
      `${dir} holds another evolution (${differ.join(', ')} differ${differ.length === 1 ? 's' : ''} from this run's): rerun with the same inputs and flags to continue it, or choose another --out`,
    );
  }
}

/** Generations as one JSON file each under `dir/generations/`, numbered, never rewritten. */
export function directoryGenerationStore(dir: string): GenerationStore {
  const folder = join(dir, GENERATIONS);
  return {
    load: async () => {
      if (!existsSync(folder)) return [];
      const names = readdirSync(folder)
        .filter((n) => /^gen-\d{4}\.json$/.test(n))
        .sort();
      return names.map((name, i) => {
        const path = join(folder, name);
        const parsed = GenerationSchema.safeParse(readJson(path));
        if (!parsed.success)
          throw new RewardKitError('RK_INPUT_SCHEMA', `${path} is not a stored generation`);
        if (parsed.data.generation !== i || name !== fileOf(i)) {
          throw new RewardKitError(
            'RK_INPUT_SCHEMA',
            `${folder}: generation ${i} is missing (found ${name})`,
          );
        }
        return parsed.data;
      });
    },
    save: async (generation: Generation) => {
      mkdirSync(folder, { recursive: true });
      writeAtomically(
        join(folder, fileOf(generation.generation)),
        `${JSON.stringify(generation, null, 2)}\n`,
      );
    },
  };
}
