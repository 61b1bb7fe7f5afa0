import { RewardKitError } from '../../core/index.js';
import type { RubricProducer } from '../../judges/proxy-grm/index.js';

/** The flags a producer may read: each is read by the producers that list it, and refused by the others. */
export interface ProducerFlags {
  rubrics?: string;
  rubricFile?: string;
  metaRubric?: string;
  domains?: string;
}

interface ProducerEntry {
  /** Flags this producer reads, with whether it needs them. */
  readonly flags: Partial<Record<keyof ProducerFlags, 'required' | 'optional'>>;
  /** Why a required flag is needed, for the usage error. */
  readonly needs?: string;
  readonly create: (flags: ProducerFlags) => Promise<RubricProducer>;
}

const proxyGrm = () => import('../../judges/proxy-grm/index.js');

/**
 * The rubric producers `rubrics quality --producer` offers, by name: adding one is its module in
 * `src/judges/proxy-grm/` and one entry here.
 */
export const RUBRIC_PRODUCERS: Readonly<Record<string, ProducerEntry>> = {
  openrs: {
    flags: { metaRubric: 'optional', domains: 'optional' },
    create: async (flags) => {
      const { loadOpenrsFiles } = await import('../../judges/openrs/index.js');
      return (await proxyGrm()).openrsRubricProducer(
        loadOpenrsFiles({
          ...(flags.metaRubric !== undefined && { metaRubric: flags.metaRubric }),
          ...(flags.domains !== undefined && { domains: flags.domains }),
        }),
      );
    },
  },
  medical: {
    flags: { rubrics: 'required' },
    needs: 'the QuarkMedBench rubrics, one per pair id (rubrics generate writes them)',
    create: async (flags) => {
      const { loadMedicalRubrics } = await import('../../judges/medical/index.js');
      return (await proxyGrm()).medicalRubricProducer(loadMedicalRubrics(flags.rubrics as string));
    },
  },
  genrm: { flags: {}, create: async () => (await proxyGrm()).genrmRubricProducer },
  rubric: {
    flags: { rubricFile: 'required' },
    needs: 'the rubric (YAML or JSON) the general rubric judge grades every pair by',
    create: async (flags) => {
      const { readRubricFile } = await import('../../judges/rubric/index.js');
      const read = readRubricFile(flags.rubricFile as string);
      if ('problems' in read)
        throw new RewardKitError('RK_USAGE', `--rubric-file:\n  ${read.problems.join('\n  ')}`);
      return (await proxyGrm()).rubricJudgeProducer(read.rubric);
    },
  },
};

const FLAG_NAMES: Readonly<Record<keyof ProducerFlags, string>> = {
  rubrics: '--rubrics <file>',
  rubricFile: '--rubric-file <file>',
  metaRubric: '--meta-rubric <file>',
  domains: '--domains <dir>',
};

/** The producer's usage problems (a required flag missing, another producer's flag given), or none. */
export function producerFlagProblems(name: string, flags: ProducerFlags): string[] {
  const entry = RUBRIC_PRODUCERS[name] as ProducerEntry;
  return (Object.keys(FLAG_NAMES) as Array<keyof ProducerFlags>).flatMap((flag) => {
    const given = flags[flag] !== undefined;
    const wanted = entry.flags[flag];
    if (wanted === 'required' && !given)
      return [`--producer ${name} needs ${FLAG_NAMES[flag]}: ${entry.needs ?? 'see --help'}`];
    if (wanted === undefined && given) {
      const readers = Object.keys(RUBRIC_PRODUCERS).filter(
        (p) => RUBRIC_PRODUCERS[p]?.flags[flag] !== undefined,
      );
      return [
        `${FLAG_NAMES[flag].split(' ')[0]} is read only by --producer ${readers.join(', ')}; drop it for --producer ${name}`,
      ];
    }
    return [];
  });
}
