import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { RewardKitError } from '../../core/index.js';
import {
  evolveMetaRubric,
  type Generation,
  type HeldOutReport,
  HeldOutReportSchema,
  heldOutCheck,
  heldOutSplit,
  type LabelledPair,
  type Variant,
} from '../../judges/meta-rubric-evolution/index.js';
import { loadOpenrsFiles, parseMetaRubric, renderMetaRubric } from '../../judges/openrs/index.js';
import type { ChatModel } from '../../llm/index.js';
import { proxyQuality } from './rubrics-evolve-quality.js';
import { claimEvolutionDir, directoryGenerationStore } from './rubrics-evolve-store.js';
import { readLabelledPairs } from './rubrics-labelled-pairs.js';

export interface EvolveRunOptions {
  labelled: string;
  out: string;
  metaRubric?: string;
  domains?: string;
  generations: number;
  population: number;
  tiePenalty: number;
  heldOut: number;
  seed: number;
  sections?: string[];
  misjudged: number;
  concurrency: number;
  reasks: number;
  /** Weight of the Proxy-GRM rubric-quality term (0: none; needs a proxy model). */
  qualityWeight: number;
}

export const BEST_META_RUBRIC = 'best-meta-rubric.md';
export const HELD_OUT_REPORT = 'held-out.json';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Everything checked before a model is called: the files, the sections, the pairs, the output folder. */
export function prepareEvolution(
  options: EvolveRunOptions,
  models: { judge: string; mutator: string; proxy?: string },
) {
  const files = loadOpenrsFiles({
    ...(options.metaRubric !== undefined && { metaRubric: options.metaRubric }),
    ...(options.domains !== undefined && { domains: options.domains }),
  });
  const headings = files.metaRubric.sections.map((s) => s.heading);
  const sections = (options.sections ?? headings).map((name) => {
    const found = headings.find((h) => h.toLowerCase() === name.toLowerCase());
    if (found === undefined) {
      throw new RewardKitError(
        'RK_USAGE',
        `--section "${name}": the meta-rubric ${files.metaRubric.file} has no such "##" section (it has: ${headings.join(', ')})`,
      );
    }
    return found;
  });
  const { pairs, text } = readLabelledPairs(options.labelled);
  const split = heldOutSplit(
    pairs.map((p) => p.id),
    options.heldOut,
    options.seed,
  );
  const byId = new Map(pairs.map((p) => [p.id, p]));
  const pick = (ids: string[]) => ids.map((id) => byId.get(id) as LabelledPair);
  const seedMarkdown = renderMetaRubric(files.metaRubric);
  claimEvolutionDir(options.out, {
    version: 1,
    labelled: sha256(text),
    seed_meta_rubric: sha256(seedMarkdown),
    domains: sha256(JSON.stringify([...files.domains.values()].map(({ file: _, ...pool }) => pool))),
    judge: models.judge,
    mutator: models.mutator,
    population: options.population,
    tie_penalty: options.tiePenalty,
    held_out: options.heldOut,
    seed: options.seed,
    sections,
    misjudged: options.misjudged,
    // Only when on, so a folder evolved before the term existed still continues.
    ...(options.qualityWeight > 0 && { quality_weight: options.qualityWeight, proxy: models.proxy }),
  });
  return { files, sections, train: pick(split.train), heldOut: pick(split.heldOut) };
}

export interface EvolveRunResult {
  best: Variant;
  seed: Variant;
  generations: Generation[];
  heldOut: HeldOutReport | undefined;
  /** Whether the held-out report was read back from an earlier run with the same best. */
  heldOutReused: boolean;
  bestFile: string;
}

const StoredHeldOutSchema = HeldOutReportSchema.extend({
  seed_variant: z.string(),
  best_variant: z.string(),
});

/**
 * The stored held-out report, when it is about this best variant and these held-out pairs and
 * every pair was read; otherwise (stale, unreadable, a failed pair to retry) the check runs again
 * and overwrites it.
 */
function storedHeldOut(
  path: string,
  best: string,
  pairs: readonly LabelledPair[],
): HeldOutReport | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: ReturnType<typeof StoredHeldOutSchema.safeParse>;
  try {
    parsed = StoredHeldOutSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  } catch {
    return undefined;
  }
  if (!parsed.success || parsed.data.best_variant !== best) return undefined;
  const ids = (list: readonly { id: string }[]) => list.map((p) => p.id).join('\n');
  const { seed, best: bestRun } = parsed.data;
  if (ids(bestRun.outcomes) !== ids(pairs) || ids(seed.outcomes) !== ids(pairs)) return undefined;
  if (seed.failed + bestRun.failed > 0) return undefined;
  const { seed_variant: _, best_variant: __, ...report } = parsed.data;
  return report;
}

/** Runs (or continues) the evolution, then the held-out check, and writes the best meta-rubric. */
export async function runEvolution(
  options: EvolveRunOptions,
  prepared: ReturnType<typeof prepareEvolution>,
  models: { judge: ChatModel; mutator: ChatModel; proxy?: ChatModel },
  hooks: { onGeneration: (g: Generation) => void; signal?: AbortSignal },
): Promise<EvolveRunResult> {
  const judge = {
    model: models.judge,
    domains: prepared.files.domains,
    reasks: options.reasks,
    ...(hooks.signal && { signal: hooks.signal }),
  };
  const result = await evolveMetaRubric({
    seedMetaRubric: prepared.files.metaRubric,
    pairs: prepared.train,
    judge,
    mutator: { model: models.mutator, reasks: options.reasks },
    generations: options.generations,
    population: options.population,
    tiePenalty: options.tiePenalty,
    sections: prepared.sections,
    misjudged: options.misjudged,
    seed: options.seed,
    concurrency: options.concurrency,
    ...(options.qualityWeight > 0 &&
      models.proxy && {
        quality: proxyQuality({
          weight: options.qualityWeight,
          producer: models.judge,
          proxy: models.proxy,
          files: prepared.files,
          reasks: options.reasks,
          concurrency: options.concurrency,
          seed: options.seed,
        }),
      }),
    store: directoryGenerationStore(options.out),
    onGeneration: hooks.onGeneration,
    ...(hooks.signal && { signal: hooks.signal }),
  });
  const seed = result.variants.get('g0-seed') as Variant;
  const bestFile = join(options.out, BEST_META_RUBRIC);
  writeFileSync(bestFile, result.best.markdown);
  const heldOutFile = join(options.out, HELD_OUT_REPORT);
  let heldOut = storedHeldOut(heldOutFile, result.best.id, prepared.heldOut);
  const heldOutReused = heldOut !== undefined;
  if (!heldOut && prepared.heldOut.length > 0) {
    heldOut = await heldOutCheck({
      seed: parseMetaRubric(seed.markdown, `${seed.id}.md`),
      best: parseMetaRubric(result.best.markdown, `${result.best.id}.md`),
      pairs: prepared.heldOut,
      judge,
      tiePenalty: options.tiePenalty,
      concurrency: options.concurrency,
      bootstrapSeed: options.seed,
    });
    writeFileSync(
      heldOutFile,
      `${JSON.stringify({ seed_variant: seed.id, best_variant: result.best.id, ...heldOut }, null, 2)}\n`,
    );
  }
  return { best: result.best, seed, generations: result.generations, heldOut, heldOutReused, bestFile };
}
