import { type Command, InvalidArgumentError } from 'commander';
import { RewardKitError } from '../../core/index.js';
import { type BreakerFlags, breakerGuard, breakerOption, runSignal } from '../backend-breaker.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { loadConfiguredModels, pickModel, requireModelsReady } from '../models-location.js';
import { nonNegativeInt, positiveInt } from '../number-flags.js';

interface EvolveFlags extends BreakerFlags {
  models?: string;
  judge: string;
  mutator: string;
  labelled: string;
  out: string;
  metaRubric?: string;
  domains?: string;
  generations: number;
  population: number;
  tiePenalty: number;
  heldOut: number;
  seed: number;
  section?: string[];
  misjudged: number;
  concurrency: number;
  reasks: number;
  qualityWeight: number;
  proxyModel?: string;
}

const nonNegative = (flag: string) => (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError(`${flag} expects a number ≥ 0, got "${value}".`);
  return n;
};
const heldOutFraction = (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n >= 1)
    throw new InvalidArgumentError(`--held-out expects a fraction in [0, 1), got "${value}".`);
  return n;
};
const integer = (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new InvalidArgumentError(`--seed expects an integer, got "${value}".`);
  return n;
};
const repeat = (value: string, previous: string[] = []) => [...previous, value];
const fixed = (x: number | undefined) => (x === undefined ? 'n/a' : x.toFixed(3));
const interval = (i: [number, number] | undefined) => (i ? ` [${fixed(i[0])}, ${fixed(i[1])}]` : '');

/** `rubrics evolve`: OpenRS meta-rubric evolution (registered by `rubrics-command.ts`). */
export function registerRubricsEvolveCommand(rubrics: Command, state: CommandState): void {
  rubrics
    .command('evolve')
    .description(
      'Evolve an OpenRS meta-rubric on labelled pairs: one section mutated at a time from misjudged pairs, kept when fitness rises.',
    )
    .option('--models <file>', 'models file (default: $REWARDKIT_MODELS)')
    .addOption(breakerOption())
    .requiredOption('--judge <name>', 'the OpenRS judge model (a name from the models file)')
    .requiredOption('--mutator <name>', 'the model that rewrites a section')
    .requiredOption(
      '-l, --labelled <file>',
      'labelled pairs, one {"id", "prompt", "chosen", "rejected"} per line',
    )
    .requiredOption(
      '-o, --out <dir>',
      'where generations, the best meta-rubric and the held-out report go; rerun to continue',
    )
    .option('--meta-rubric <file>', 'the meta-rubric to start from (default: the shipped one)')
    .option('--domains <dir>', 'domain pool folder (default: the shipped pools)')
    .option(
      '-g, --generations <n>',
      'generations after the seed (a rerun with more continues)',
      nonNegativeInt('--generations'),
      3,
    )
    .option('-p, --population <n>', 'variants kept per generation', positiveInt('--population'), 4)
    .option(
      '--tie-penalty <λ>',
      'fitness cost of a tie: accuracy − λ · tie rate',
      nonNegative('--tie-penalty'),
      0.5,
    )
    .option(
      '--held-out <fraction>',
      'pairs held out of evolution for the final check (seeded split)',
      heldOutFraction,
      0.3,
    )
    .option('--seed <n>', 'seeds the split, the sections chosen and the pairs shown', integer, 0)
    .option(
      '--section <name>',
      'a "##" section mutations may rewrite (repeat; default: every section)',
      repeat,
    )
    .option('--misjudged <n>', 'misjudged pairs shown per mutation, at most', positiveInt('--misjudged'), 4)
    .option('-c, --concurrency <n>', 'pairs judged at once', positiveInt('--concurrency'), 4)
    .option('--reasks <n>', 're-asks after unreadable judge or mutator output', nonNegativeInt('--reasks'), 2)
    .option(
      '--quality-weight <w>',
      'add w · Proxy-GRM rubric quality to the fitness (the proxy’s mean +1/−1 on the training pairs; needs --proxy-model)',
      nonNegative('--quality-weight'),
      0,
    )
    .option('--proxy-model <name>', 'with --quality-weight: the proxy judge, a name from the models file')
    .addHelpText(
      'after',
      `
Generation 0 judges every training pair under the seed meta-rubric, in both orders with the
symmetric rule: a pair is right only when both orders agree with the label. Each later generation
rewrites one "##" section of every variant in the population from pairs it misjudged (the mutator
sees the section and those pairs' queries and responses, never the label or the verdict); the
child is judged on every training pair and kept only when its fitness beats its parent's.
Fitness = swap-consistent accuracy − λ · tie rate over the pairs with a readable verdict; a pair
the judge never answers readably is recorded failed, never right or wrong. With --quality-weight w,
plus w · rubric quality: under the variant OpenRS writes each training pair's rubric and a proxy
shown only that rubric predicts the preference (Proxy-GRM; +1 right, −1 wrong or no readable
rubric, transport failures left out); it costs OpenRS's calls and the proxy's two per pair again for every variant.

Writes to --out: evolution.json (the run's inputs), generations/gen-NNNN.json (every variant with
its markdown, fitness and per-pair outcomes), best-meta-rubric.md (pass it to --meta-rubric), and
held-out.json (seed vs best on the held-out pairs, with bootstrap intervals). A rerun with the same
inputs continues from the stored generations; other inputs are refused.

Example:
  rewardkit rubrics evolve --models models.yaml --judge judge --mutator writer \\
    --labelled pairs.jsonl --out evolution/ --generations 3 --population 4 --tie-penalty 0.5`,
    )
    .action(async (flags: EvolveFlags) => {
      const { prepareEvolution, runEvolution } = await import('./rubrics-evolve-run.js');
      const options = {
        labelled: flags.labelled,
        out: flags.out,
        ...(flags.metaRubric !== undefined && { metaRubric: flags.metaRubric }),
        ...(flags.domains !== undefined && { domains: flags.domains }),
        generations: flags.generations,
        population: flags.population,
        tiePenalty: flags.tiePenalty,
        heldOut: flags.heldOut,
        seed: flags.seed,
        ...(flags.section !== undefined && { sections: flags.section }),
        misjudged: flags.misjudged,
        concurrency: flags.concurrency,
        reasks: flags.reasks,
        qualityWeight: flags.qualityWeight,
      };
      if (flags.qualityWeight > 0 && flags.proxyModel === undefined)
        throw new RewardKitError('RK_USAGE', '--quality-weight needs --proxy-model, the proxy judge');
      if (flags.qualityWeight === 0 && flags.proxyModel !== undefined)
        throw new RewardKitError('RK_USAGE', '--proxy-model is read only with --quality-weight > 0');
      const configured = await loadConfiguredModels(flags.models, breakerGuard(flags, state));
      const judge = pickModel(configured, flags.judge, 'rubrics evolve');
      const mutator = pickModel(configured, flags.mutator, 'rubrics evolve');
      const proxy =
        flags.proxyModel !== undefined
          ? pickModel(configured, flags.proxyModel, 'rubrics evolve')
          : undefined;
      const prepared = prepareEvolution(options, {
        judge: flags.judge,
        mutator: flags.mutator,
        ...(flags.proxyModel !== undefined && { proxy: flags.proxyModel }),
      });
      await requireModelsReady(proxy ? [judge, mutator, proxy] : [judge, mutator]);
      const say = (text: string) => process.stderr.write(`${text}\n`);
      say(
        `evolve: ${prepared.train.length} training pair(s), ${prepared.heldOut.length} held out; sections: ${prepared.sections.join(', ')}`,
      );
      const controller = new AbortController();
      const onSigint = () => controller.abort();
      process.once('SIGINT', onSigint);
      try {
        const result = await runEvolution(
          options,
          prepared,
          { judge, mutator, ...(proxy && { proxy }) },
          {
            signal: runSignal(controller.signal, state),
            onGeneration: (g) => {
              const kept = g.variants.filter((v) => v.kept).length;
              const failed = g.variants.filter((v) => v.failure !== undefined).length;
              say(
                `generation ${g.generation}: ${g.variants.length} variant(s), ${kept} kept, ${failed} failed mutation(s); population ${g.population.join(', ')}`,
              );
            },
          },
        );
        const train = result.best.fitness;
        const unread = result.seed.fitness?.failed ?? 0;
        if (unread > 0)
          say(
            `evolve: warning: ${unread} of ${prepared.train.length} training pair(s) got no readable verdict under the seed meta-rubric (recorded failed, left out of the fitness; reasons in generations/gen-0000.json)`,
          );
        say(
          `evolve: best ${result.best.id} (training fitness ${fixed(train?.fitness)}, seed ${fixed(result.seed.fitness?.fitness)}), written to ${result.bestFile}`,
        );
        if (result.heldOut) {
          const { seed, best, difference } = result.heldOut;
          say(
            `held-out (${result.heldOut.pairs} pairs${result.heldOutReused ? ', read back from held-out.json: the best is unchanged' : ''}): seed ${fixed(seed.fitness)}${interval(seed.interval)}, best ${fixed(best.fitness)}${interval(best.interval)}, difference ${fixed(difference?.mean)}${interval(difference?.interval)}`,
          );
        }
        process.stdout.write(
          `${JSON.stringify({
            best: result.best.id,
            file: result.bestFile,
            generations: result.generations.length - 1,
            train: { seed: result.seed.fitness, best: train },
            ...(result.heldOut && {
              held_out: {
                pairs: result.heldOut.pairs,
                seed: { ...result.heldOut.seed, outcomes: undefined },
                best: { ...result.heldOut.best, outcomes: undefined },
                difference: result.heldOut.difference,
              },
            }),
          })}\n`,
        );
        // No readable verdict on any training pair: the fitness measured nothing.
        state.exitCode = result.seed.fitness?.fitness === undefined ? EXIT.rowsFailed : EXIT.ok;
      } finally {
        process.off('SIGINT', onSigint);
      }
    });
}
