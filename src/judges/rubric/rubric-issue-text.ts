import type { z } from 'zod';

/** A rubric's zod issue as one line naming its field: `field "criteria.1.weight": Too small: ...`. */
export function rubricIssueText(issue: z.core.$ZodIssue, prefix = ''): string {
  const path = issue.path.map(String).join('.');
  const field = [prefix, path].filter((p) => p !== '').join('.') || '(rubric)';
  return `field "${field}": ${issue.message}`;
}
