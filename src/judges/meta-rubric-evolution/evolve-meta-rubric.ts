import { createRng, mapConcurrent, RewardKitError } from '../../core/index.js';
import type { CallTrace } from '../../llm/index.js';
import type { RoleCallOptions } from '../judge-role.js';
import { type MetaRubric, parseMetaRubric } from '../openrs/meta-rubric.js';
import {
  metaRubricSectionText,
  renderMetaRubric,
  replaceMetaRubricSection,
} from '../openrs/meta-rubric-markdown.js';
import { evolutionFitness } from './evolution-fitness.js';
import type { Generation, GenerationStore, Variant } from './evolution-record.js';
import type { LabelledPair } from './labelled-pair.js';
import { judgeLabelledPair, type PairJudgeOptions, type PairOutcome } from './pair-outcome.js';
import { answerSameRequestOnce } from './same-request-once.js';
import { type MisjudgedPair, mutateSection } from './section-mutation.js';

/**
 * An extra fitness term, e.g. Proxy-GRM rubric quality: `score` rates a variant on the training
 * pairs and `weight` scales it into the fitness. Evolution itself only adds it.
 */
export interface FitnessQuality {
  weight: number;
  score: (metaRubric: MetaRubric, pairs: readonly LabelledPair[], signal?: AbortSignal) => Promise<number>;
}

export interface EvolveMetaRubricOptions {
  /** The meta-rubric evolution starts from (generation 0). */
  seedMetaRubric: MetaRubric;
  /** The training pairs; held-out pairs never come here. */
  pairs: readonly LabelledPair[];
  judge: PairJudgeOptions;
  mutator: RoleCallOptions;
  /** Generations after the seed's; a store already holding them makes this a no-op. */
  generations: number;
  /** Variants kept per generation. */
  population: number;
  /** λ: the fitness cost of a tie. */
  tiePenalty: number;
  /** The `##` sections a mutation may rewrite. */
  sections: readonly string[];
  /** Misjudged pairs shown per mutation, at most. */
  misjudged: number;
  seed: number;
  /** Pairs judged at once. */
  concurrency: number;
  quality?: FitnessQuality;
  store: GenerationStore;
  onGeneration?: (generation: Generation) => void;
  signal?: AbortSignal;
}

export interface EvolutionResult {
  generations: Generation[];
  /** Every variant by id, the failed mutations included. */
  variants: ReadonlyMap<string, Variant>;
  /** The variant with the best training fitness (the population's first). */
  best: Variant;
}

const misjudgedOutcomes = new Set<PairOutcome['outcome']>(['wrong', 'tie']);
const better = (a: Variant, b: Variant) =>
  (b.fitness?.fitness ?? -Infinity) - (a.fitness?.fitness ?? -Infinity);

/** Chosen per (seed, generation, parent), so a resumed run makes the choices a straight run would. */
const rngFor = (seed: number, generation: number, parent: number) =>
  createRng((Math.imul(seed ^ 0x9e3779b9, 31) + Math.imul(generation, 7919) + parent * 104_729) >>> 0);

/**
 * Evolutionary meta-rubric refinement (OpenRS): each generation, every variant of the population
 * has one `##` section rewritten by the mutator from pairs it misjudged on the training set; the
 * child is judged on every training pair and joins the population only when its fitness beats its
 * parent's; the population keeps its `population` best. Every generation is saved before the next
 * starts, and a run resumes from what the store holds.
 *
 * The mutator sees the section, the misjudged pairs' queries and responses (in a seeded order)
 * and that the judge was wrong on them: never the label, never the verdict, never a held-out
 * pair. The fitness gate re-judges every training pair under the child, so no value the mutator
 * saw can satisfy it by being copied.
 */
export async function evolveMetaRubric(options: EvolveMetaRubricOptions): Promise<EvolutionResult> {
  if (options.pairs.length === 0) throw new RewardKitError('RK_USAGE', 'evolution needs training pairs');
  if (options.sections.length === 0)
    throw new RewardKitError('RK_USAGE', 'evolution needs at least one section a mutation may rewrite');
  for (const [name, value] of [
    ['population', options.population],
    ['misjudged', options.misjudged],
    ['concurrency', options.concurrency],
  ] as const) {
    if (!Number.isInteger(value) || value < 1)
      throw new RewardKitError('RK_USAGE', `${name} must be a positive integer, got ${value}`);
  }
  const generations = await options.store.load();
  const variants = new Map<string, Variant>(
    generations.flatMap((g) => g.variants.map((v) => [v.id, v] as const)),
  );
  const pairsById = new Map(options.pairs.map((p) => [p.id, p]));

  const judge = { ...options.judge, model: answerSameRequestOnce(options.judge.model) };
  const evaluate = async (metaRubric: MetaRubric) => {
    const outcomes = await mapConcurrent(options.pairs, options.concurrency, (pair) =>
      judgeLabelledPair(pair, metaRubric, {
        ...judge,
        ...(options.signal && { signal: options.signal }),
      }),
    );
    options.signal?.throwIfAborted();
    const quality = options.quality
      ? options.quality.weight * (await options.quality.score(metaRubric, options.pairs, options.signal))
      : undefined;
    return { outcomes, fitness: evolutionFitness(outcomes, options.tiePenalty, quality) };
  };
  const record = async (generation: Generation) => {
    await options.store.save(generation);
    generations.push(generation);
    for (const v of generation.variants) variants.set(v.id, v);
    options.onGeneration?.(generation);
  };

  if (generations.length === 0) {
    const markdown = renderMetaRubric(options.seedMetaRubric);
    const seed: Variant = {
      id: 'g0-seed',
      generation: 0,
      parent: null,
      section: null,
      markdown,
      ...(await evaluate(parseMetaRubric(markdown, 'g0-seed.md'))),
      kept: true,
    };
    await record({ version: 1, generation: 0, variants: [seed], population: [seed.id] });
  }

  for (let g = generations.length; g <= options.generations; g++) {
    const parents = (generations.at(-1) as Generation).population.map((id) => variants.get(id) as Variant);
    const children: Variant[] = [];
    for (const [i, parent] of parents.entries()) {
      const wrong = parent.outcomes.filter((o) => misjudgedOutcomes.has(o.outcome));
      if (wrong.length === 0) continue;
      const rng = rngFor(options.seed, g, i);
      const heading = options.sections[rng.int(0, options.sections.length - 1)] as string;
      const shown: MisjudgedPair[] = rng
        .shuffle(wrong)
        .slice(0, options.misjudged)
        .map((o) => {
          const pair = pairsById.get(o.id) as LabelledPair;
          const swap = rng.next() < 0.5;
          return {
            prompt: pair.prompt,
            responses: swap ? [pair.rejected, pair.chosen] : [pair.chosen, pair.rejected],
          };
        });
      children.push(await mutate(parent, `g${g}-${i}`, g, heading, shown));
    }
    const population = [...parents, ...children.filter((c) => c.kept)]
      .sort(better)
      .slice(0, options.population)
      .map((v) => v.id);
    await record({ version: 1, generation: g, variants: children, population });
  }

  const bestId = (generations.at(-1) as Generation).population[0] as string;
  return { generations, variants, best: variants.get(bestId) as Variant };

  async function mutate(
    parent: Variant,
    id: string,
    generation: number,
    heading: string,
    misjudged: MisjudgedPair[],
  ): Promise<Variant> {
    const base = { id, generation, parent: parent.id, section: heading, outcomes: [], kept: false };
    const current = parseMetaRubric(parent.markdown, `${parent.id}.md`);
    const section = current.sections.find((s) => s.heading.toLowerCase() === heading.toLowerCase());
    if (section === undefined) {
      return {
        ...base,
        markdown: parent.markdown,
        failure: `${parent.id}.md has no "## ${heading}" section`,
      };
    }
    const calls: CallTrace[] = [];
    const mutation = await mutateSection(
      {
        heading: section.heading,
        text: metaRubricSectionText(section),
        otherHeadings: current.sections.filter((s) => s !== section).map((s) => s.heading),
        misjudged,
      },
      { ...options.mutator, ...(options.signal && { signal: options.signal }) },
      calls,
    );
    // A call refused because the run stopped is no verdict on the mutation: nothing is recorded.
    options.signal?.throwIfAborted();
    if (mutation.status === 'invalid') {
      return { ...base, markdown: parent.markdown, failure: `mutator: ${mutation.reason}` };
    }
    let child: MetaRubric;
    try {
      child = replaceMetaRubricSection(current, section.heading, mutation.value.section, `${id}.md`);
    } catch (error) {
      if (!(error instanceof RewardKitError)) throw error;
      return {
        ...base,
        markdown: parent.markdown,
        rationale: mutation.value.rationale,
        failure: error.message,
      };
    }
    const evaluated = await evaluate(child);
    const [mine, theirs] = [evaluated.fitness.fitness, parent.fitness?.fitness];
    return {
      ...base,
      markdown: renderMetaRubric(child),
      rationale: mutation.value.rationale,
      ...evaluated,
      kept: mine !== undefined && (theirs === undefined || mine > theirs),
    };
  }
}
