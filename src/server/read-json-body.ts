import type { Context } from 'hono';
import type { z } from 'zod';
import { issuesOf } from '../core/index.js';
import { ApiError } from './api-error.js';
import { type BodyLimits, readRequestBody } from './read-request-body.js';
import type { RequestDeadline } from './request-deadline.js';

/**
 * The request body parsed as JSON and validated; 400 naming each bad field otherwise. Reading
 * spends the request's deadline (504 when the body is not in by then); the scoring that follows
 * gets only what is left of it.
 */
export async function readJsonBody<S extends z.ZodType>(
  c: Context,
  schema: S,
  limits: BodyLimits,
  deadline: RequestDeadline,
): Promise<z.output<S>> {
  const text = await readRequestBody(c, limits, deadline);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'malformed_json', `request body is not JSON: ${(error as Error).message}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = issuesOf(parsed.error, 'body');
    const first = issues[0];
    throw new ApiError(
      400,
      'invalid_request',
      `invalid request body${first ? `: ${first.path}: ${first.message}` : ''}${issues.length > 1 ? ` (and ${issues.length - 1} more)` : ''}`,
      { issues },
    );
  }
  return parsed.data;
}
