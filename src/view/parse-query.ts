import type { z } from 'zod';
import { issuesOf } from '../core/index.js';
import { ApiError } from '../server/index.js';

/** A request's query parameters through `schema`, or a 400 naming each bad parameter. */
export function parseQuery<Schema extends z.ZodType>(
  schema: Schema,
  query: Record<string, string>,
): z.output<Schema> {
  const parsed = schema.safeParse(query);
  if (parsed.success) return parsed.data;
  // An unknown parameter is an issue of the whole query in zod; name the parameter instead.
  const issues = parsed.error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ code: issue.code, path: key, message: 'unknown parameter' }))
      : issuesOf([issue], 'query'),
  );
  throw new ApiError(
    400,
    'invalid_query',
    `invalid query parameter ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
    { issues },
  );
}
