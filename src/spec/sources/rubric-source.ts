import { resolve } from 'node:path';
import { z } from 'zod';
import { promptText, RewardKitError, referencesOf } from '../../core/index.js';
// Only what parsing and compiling need, each from its own file: the judge loads on first use.
import { readRubricFile } from '../../judges/rubric/read-rubric-file.js';
import { type Rubric, RubricSchema } from '../../judges/rubric/rubric-schema.js';
import { sampleRubric } from '../../judges/rubric/sample-rubric.js';
import { judgeCallsOf } from '../../llm/judge-call-of.js';
import { usageOf } from '../../llm/usage-of.js';
import { defineJudgeKind } from '../judge-kind.js';
import { SourceFailedError } from '../source-failed-error.js';
import { onFirstUse } from './on-first-use.js';

const loadJudge = onFirstUse(() => import('../../judges/rubric/judge-rubric.js'));

const params = z
  .strictObject({
    model: z
      .string()
      .min(1)
      .meta({ placeholder: 'name', short: '-m' })
      .describe('the judge: a model name from the models file'),
    rubric: RubricSchema.optional().describe(
      "the rubric inline ({mode: criteria|checklist|likert|reference, ...}); a sample's metadata.rubric replaces it",
    ),
    rubric_file: z
      .string()
      .min(1)
      .meta({ placeholder: 'file' })
      .optional()
      .describe(
        'a rubric file (YAML or JSON), relative to the spec (on the command line, to the working folder); read once, before scoring',
      ),
    calls: z
      .enum(['batch', 'per_criterion'])
      .default('batch')
      .describe('one call grades every criterion (batch), or one call per criterion'),
    votes: z.number().int().min(1).max(25).default(1).describe('independent gradings of each criterion'),
    vote: z
      .enum(['majority', 'mean'])
      .default('majority')
      .describe('how the votes on a criterion combine (majority: a tie takes the lower grade)'),
    reasks: z.number().int().nonnegative().default(2).describe('re-asks after unreadable output'),
    temperature: z.number().min(0).max(2).optional().describe('sampling temperature of the judge'),
    pass_at: z.number().min(0).max(1).default(0.5).describe('the verdict is pass at or above this score'),
  })
  .refine((p) => p.rubric === undefined || p.rubric_file === undefined, {
    path: ['rubric_file'],
    message: 'give the rubric inline (rubric) or in a file (rubric_file), not both',
  });
type Params = z.output<typeof params>;

/** The params with the rubric file read (relative to `base`) and put inline, or its problems. */
function withRubricFile(p: Params, base: string): { params: Params } | { problems: string[] } {
  if (p.rubric_file === undefined) return { params: p };
  const read = readRubricFile(resolve(base, p.rubric_file));
  if ('problems' in read) return { problems: read.problems };
  const { rubric_file: _file, ...rest } = p;
  return { params: { ...rest, rubric: read.rubric } };
}

/** The rubric a sample is judged against: its own (`metadata.rubric`), else the spec's. */
function rubricOf(metadata: Record<string, unknown>, fromSpec: Rubric | undefined): Rubric {
  if (metadata.rubric !== undefined) return sampleRubric(metadata.rubric, 'metadata.rubric');
  if (fromSpec !== undefined) return fromSpec;
  throw new RewardKitError(
    'RK_SOURCE_FAILED',
    'this sample has no rubric: put one in metadata.rubric, or give params.rubric or params.rubric_file (--rubric, --rubric-file)',
  );
}

/** A pointwise judge against the user's own rubric, scored in code into [0, 1]. */
export const rubricSource = defineJudgeKind({
  kind: 'rubric',
  description:
    'Pointwise rubric judge: an LLM grades each criterion, checklist item or Likert scale of your rubric, aggregated in code into [0, 1]',
  params,
  readFiles: (p, base) => {
    const read = withRubricFile(p, base);
    return 'params' in read
      ? read
      : {
          problems: [{ param: 'rubric_file', message: `invalid rubric file:\n${read.problems.join('\n')}` }],
        };
  },
  create: (raw) => {
    // A spec reads the file when it is parsed; a check made from raw params reads it now.
    const read = withRubricFile(raw, '.');
    if ('problems' in read)
      throw new RewardKitError(
        'RK_USAGE',
        `invalid rubric file ${raw.rubric_file}:\n${read.problems.join('\n')}`,
      );
    const p = read.params;
    return async (sample, { services, signal }) => {
      const rubric = rubricOf(sample.metadata, p.rubric);
      const references = referencesOf(sample);
      const { judgeRubric } = await loadJudge();
      const judgment = await judgeRubric(
        {
          prompt: promptText(sample),
          response: sample.response,
          ...(references.length > 0 && { reference: references.join('\n---\n') }),
          rubric,
        },
        {
          model: services.model(p.model),
          calls: p.calls,
          votes: p.votes,
          vote: p.vote,
          reasks: p.reasks,
          signal,
          ...(p.temperature !== undefined && { temperature: p.temperature }),
        },
      );
      const usage = usageOf(judgment.calls);
      const calls = judgeCallsOf(judgment.calls);
      // The calls go to the evidence's own `calls`, not again in the detail.
      const { calls: _traces, ...graded } = judgment;
      const detail = { rubric_from: sample.metadata.rubric === undefined ? 'spec' : 'sample', ...graded };
      if (judgment.status === 'invalid')
        throw new SourceFailedError(`the judge gave no readable grading: ${judgment.reason}`, {
          detail,
          usage,
          calls,
        });
      return {
        score: judgment.score,
        verdict: judgment.score >= p.pass_at ? 'pass' : 'fail',
        detail,
        usage,
        calls,
        reason: `${judgment.mode}, ${judgment.aggregate}: ${judgment.criteria.map((c) => `${c.name} ${round(c.value)}`).join(', ')}`,
      };
    };
  },
  judge: {
    reads:
      'metadata.rubric (a rubric of its own), else the rubric of --rubric or --rubric-file; "reference" in reference mode',
    examples: [
      '--models models.yaml --model judge --rubric-file examples/rubric/criteria.yaml --input answers.jsonl --output judged.jsonl',
      '--models models.yaml --model judge --calls per_criterion --votes 3 --rubric \'{"mode":"checklist","items":[{"name":"cites","description":"Does it cite a source?"}]}\' --input answers.jsonl --output judged.jsonl',
    ],
  },
});

const round = (v: number) => Math.round(v * 1000) / 1000;
