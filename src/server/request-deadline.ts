import { ApiError } from './api-error.js';

/** The header a client lowers its request's deadline with (milliseconds). */
export const DEADLINE_HEADER = 'x-deadline-ms';

/**
 * The deadline a request runs under, counted from when its handler started — before its body is
 * read, so reading and parsing the body spend the same budget as scoring it.
 */
export interface RequestDeadline {
  /** The whole deadline, ms. */
  readonly ms: number;
  /** When it started (`performance.now()`). */
  readonly startedAt: number;
  /** What is left of it, ms (≤ 0 once passed). */
  remainingMs(): number;
  /** The same deadline, lowered by a body's `deadline_ms` (the smaller wins). */
  lowered(fieldMs: number | undefined): RequestDeadline;
}

/**
 * The server's deadline, lowered by the `X-Deadline-Ms` header: a client can shorten its
 * deadline, never extend it. A header that is not a positive number is a 400.
 */
export function requestDeadline(serverMs: number, header: string | undefined): RequestDeadline {
  let ms = serverMs;
  if (header !== undefined) {
    const asked = Number(header);
    if (!Number.isFinite(asked) || asked <= 0) {
      throw new ApiError(
        400,
        'invalid_request',
        `header X-Deadline-Ms expects a positive number of milliseconds, got "${header}"`,
        {
          issues: [
            {
              code: 'custom',
              path: 'headers.x-deadline-ms',
              message: 'expected a positive number of milliseconds',
            },
          ],
        },
      );
    }
    ms = Math.min(ms, asked);
  }
  return deadlineFrom(performance.now(), ms);
}

function deadlineFrom(startedAt: number, ms: number): RequestDeadline {
  return {
    ms,
    startedAt,
    remainingMs: () => startedAt + ms - performance.now(),
    lowered: (fieldMs) =>
      fieldMs === undefined || fieldMs >= ms ? deadlineFrom(startedAt, ms) : deadlineFrom(startedAt, fieldMs),
  };
}
