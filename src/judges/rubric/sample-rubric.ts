import { RewardKitError } from '../../core/index.js';
import { rubricIssueText } from './rubric-issue-text.js';
import { type Rubric, RubricSchema } from './rubric-schema.js';

/**
 * A rubric a sample carries (`metadata.rubric`), checked on its own: a bad one fails that sample
 * with every problem, each naming its field under `where`, before any call is made.
 */
export function sampleRubric(raw: unknown, where: string): Rubric {
  const parsed = RubricSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw new RewardKitError(
    'RK_INPUT_SCHEMA',
    `${where} is not a valid rubric: ${parsed.error.issues.map((issue) => rubricIssueText(issue, where)).join('; ')}`,
  );
}
