import type { z } from 'zod';

/**
 * A zod issue of a skill file worded for the person fixing it: a missing field says so, a bad enum
 * value names the value and the allowed ones, an unknown key lists the known ones. Parse with
 * `reportInput: true` so the value is there to name.
 */
export function issueMessage(issue: z.core.$ZodIssue, knownKeys: readonly string[]): string {
  if (issue.code === 'invalid_type' && issue.input === undefined) return 'is required';
  if (issue.code === 'invalid_value') {
    const values = issue.values.map(String).join(', ');
    return issue.input === undefined
      ? `is required: one of ${values}`
      : `${JSON.stringify(issue.input)} is not one of ${values}`;
  }
  if (issue.code === 'unrecognized_keys') return `unknown key; the keys are ${knownKeys.join(', ')}`;
  return issue.message;
}

/** The path an issue is about; an unknown key's issue sits on its object, so point at the key. */
export function issuePath(issue: z.core.$ZodIssue): PropertyKey[] {
  return issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] as string] : issue.path;
}
