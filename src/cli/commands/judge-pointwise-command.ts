import type { Command } from 'commander';
import { z } from 'zod';
import { ChatMessageSchema, promptText, SampleIdSchema } from '../../core/index.js';
import {
  medicalRubricOf,
  medicalRubricSource,
  medicalScoringOptions,
} from '../../spec/sources/medical-rubric-source.js';
import type { CommandState } from '../command-state.js';
import { addDeprecatedFlag, type DeprecatedFlag } from '../deprecated-flag.js';
import { addParamFlags, paramFlags, paramsFromFlags } from '../params-flags.js';
import {
  addJsonlOptions,
  JSONL_OUTPUT_HELP,
  type JsonlCommandFlags,
  requireJsonlInput,
  runJsonlCommand,
} from './jsonl-command.js';
import {
  addJudgeModelOptions,
  JUDGE_CACHE_HELP,
  type JudgeModelFlags,
  openJudgeModel,
} from './judge-model.js';

/** A response to grade; the rubric comes inline (`rubric` or `metadata.rubric`) or from --rubrics by id. */
const PointwiseRowSchema = z.object({
  id: SampleIdSchema,
  prompt: z.union([z.string(), z.array(ChatMessageSchema)]).optional(),
  response: z.string(),
  rubric: z.unknown().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

interface PointwiseFlags extends JsonlCommandFlags, JudgeModelFlags {}

/** The medical_rubric params this command takes, under the spec's names (the model is `-m, --model`). */
const scoringFlags = () =>
  paramFlags(medicalRubricSource.params, new Set(['--input', '--output', '--concurrency', '--store'])).filter(
    (f) => f.path[0] !== 'model' && f.path[0] !== 'pass_at',
  );

const ratio = (value: string) => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new Error(`expects a number, got "${value}"`);
  return n;
};

/** The flag names before they became the spec's. */
const DEPRECATED: readonly DeprecatedFlag[] = [
  {
    flags: '--weights <e,i,h,p>',
    replacement: '--weights-essential, --weights-important, --weights-highlight, --weights-pitfall',
    apply: (value) => {
      const parts = String(value)
        .split(',')
        .map((s) => Number(s.trim()));
      if (parts.length !== 4 || parts.some((n) => !Number.isFinite(n))) {
        throw new Error(`expects four numbers E,I,H,P (e.g. 2,1,1,2), got "${value}"`);
      }
      const [e, i, h, p] = parts;
      return [
        ['weightsEssential', e],
        ['weightsImportant', i],
        ['weightsHighlight', h],
        ['weightsPitfall', p],
      ];
    },
  },
  {
    flags: '--essential-ratio <r>',
    replacement: '--truncation-essential-ratio',
    apply: (v) => [['truncationEssentialRatio', ratio(String(v))]],
  },
  {
    flags: '--pitfall-ratio <r>',
    replacement: '--truncation-pitfall-ratio',
    apply: (v) => [['truncationPitfallRatio', ratio(String(v))]],
  },
  {
    flags: '--criterion-cap <L>',
    replacement: '--saturation-criterion-cap',
    apply: (v) => [['saturationCriterionCap', ratio(String(v))]],
  },
  {
    flags: '--essential-multiple <m>',
    replacement: '--saturation-essential-multiple',
    apply: (v) => [['saturationEssentialMultiple', ratio(String(v))]],
  },
];

/** `rewardkit judge pointwise`: the QuarkMedBench rubric judge over JSONL rows. */
export function registerJudgePointwiseCommand(judge: Command, state: CommandState): void {
  const flags = scoringFlags();
  const command = addJudgeModelOptions(
    addJsonlOptions(
      judge
        .command('pointwise')
        .description(
          'QuarkMedBench rubric judge: rows {"id", "prompt", "response"} graded against their rubric -> {"id", "score", ...}',
        ),
      { concurrency: 8 },
    ),
  );
  addParamFlags(command, flags);
  for (const deprecated of DEPRECATED) addDeprecatedFlag(command, deprecated);
  command
    .addHelpText(
      'after',
      `
Each output line: {"id", "score" (0..1), "breakdown" (per-section credit, rules that fired, range),
"grades" (per criterion: id, section, grade, evidence, reason), "calls", "tokens", "usage"}.
The rubric is the row's "rubric" (or "metadata.rubric"), else the one with the row's id in --rubrics.
A row with no rubric or an inline rubric that fails its schema prints {"id", "error"}; a grading
the judge never returned readably prints {"id", "error", "raw", "calls", "tokens", "usage"}: never
a score. Rubrics in the --rubrics file that fail their schema are listed on stderr (file, line, field);
the valid ones are used and each row whose rubric is bad or unreadable is recorded as failed with the reason.
${JSONL_OUTPUT_HELP}
${JUDGE_CACHE_HELP}

Example:
  rewardkit judge pointwise --models models.yaml --model judge \\
    --rubrics examples/medical-rubrics.jsonl --input examples/medical-rows.jsonl -o graded.jsonl`,
    )
    .action(async (options: PointwiseFlags) => {
      const { judgmentCost } = await import('../judgment-cost.js');
      const { judgeMedicalRubric, loadMedicalRubrics, rubricFileProblems } = await import(
        '../../judges/index.js'
      );
      const params = medicalRubricSource.params.parse(
        paramsFromFlags(medicalRubricSource.params, flags, command, { model: options.model }),
      );
      const scoring = medicalScoringOptions(params);
      const rubrics = params.rubrics === undefined ? undefined : loadMedicalRubrics(params.rubrics);
      const problems = rubrics ? rubricFileProblems(rubrics) : [];
      if (problems.length > 0) {
        // The good rubrics are used; each row whose rubric is bad or unreadable fails with the reason.
        process.stderr.write(
          `warning: ${problems.length} problem(s) in ${params.rubrics}; rows without a valid rubric are recorded as failed:\n${problems.map((p) => `  ${p}`).join('\n')}\n`,
        );
      }
      requireJsonlInput(options);
      const judgeModel = await openJudgeModel(options);
      try {
        const { model } = judgeModel;
        await runJsonlCommand(
          'judge pointwise',
          options,
          {
            schema: PointwiseRowSchema,
            idOf: (row) => row.id,
            handle: async (row) => {
              const query = promptText(row);
              const { rubric } = medicalRubricOf(
                {
                  id: row.id,
                  query,
                  inline: row.rubric ?? row.metadata?.rubric,
                  field: row.rubric !== undefined ? 'rubric' : 'metadata.rubric',
                },
                rubrics,
                '--rubrics',
              );
              const judgment = await judgeMedicalRubric(
                { query: query === '' ? rubric.query : query, response: row.response, rubric },
                {
                  model,
                  reasks: params.reasks,
                  scoring,
                  ...(params.temperature !== undefined && { temperature: params.temperature }),
                },
              );
              const cost = judgmentCost(judgment.calls);
              // Never a score: the reason, the judge's last output and what the calls cost are kept.
              if (judgment.status === 'invalid') {
                return {
                  error: `the judge gave no readable grading: ${judgment.reason}`,
                  raw: judgment.raw,
                  ...cost,
                };
              }
              return {
                score: judgment.score,
                breakdown: judgment.breakdown,
                grades: judgment.grades,
                ...cost,
              };
            },
          },
          state,
        );
      } finally {
        await judgeModel.close();
      }
    });
}
