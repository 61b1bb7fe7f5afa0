import type { z } from 'zod';
import type { ApiIssue } from './api-error.js';

/** Zod issues as `{path: "samples.3.response", message}`; the root is named `body`. */
export function apiIssues(error: z.ZodError): ApiIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length === 0 ? 'body' : issue.path.map(String).join('.'),
    message: issue.message,
  }));
}
