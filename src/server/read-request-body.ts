import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { ApiError } from './api-error.js';
import type { RequestDeadline } from './request-deadline.js';

/** How much of a request body the server takes, and how long it waits for it. */
export interface BodyLimits {
  /** Largest body, bytes (`--max-body`). */
  readonly maxBytes: number;
  /** Longest the body may take to arrive, ms (`--body-timeout`). */
  readonly timeoutMs: number;
}

/** The node request behind a hono context, where there is one (not under `app.request()`). */
export function incomingOf(c: Context): IncomingMessage | undefined {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  return incoming && typeof incoming.on === 'function' ? incoming : undefined;
}

export function bodyTooLarge(maxBytes: number): ApiError {
  return new ApiError(413, 'payload_too_large', `request body is larger than ${maxBytes} bytes (--max-body)`);
}

/**
 * The request body as text, read within the body limits and the request's deadline: past
 * `maxBytes` a 413 and past the deadline a 504 (for both the rest is drained by
 * `drainUnreadBody`, so a client that sends its whole body before reading gets the answer), past
 * `timeoutMs` a 408 that closes the connection: a body that trickles in is not waited for.
 */
export function readRequestBody(c: Context, limits: BodyLimits, deadline: RequestDeadline): Promise<string> {
  const incoming = incomingOf(c);
  return incoming ? readIncoming(incoming, limits, deadline) : readWebBody(c, limits, deadline);
}

// Decoding is stateless for a whole buffer: one decoder serves every request.
const utf8 = new TextDecoder();

/** From the node request: one promise, one timer (the body's timeout or the deadline, sooner). */
function readIncoming(
  incoming: IncomingMessage,
  limits: BodyLimits,
  deadline: RequestDeadline,
): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const timer = lateTimer(limits, deadline, (error) => fail(error));
    const cleanup = () => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const fail = (error: ApiError) => {
      cleanup();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) fail(bodyTooLarge(limits.maxBytes));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      // As `Request.text()` decodes: UTF-8, a byte order mark dropped, bad bytes replaced.
      resolve(utf8.decode(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)));
    };
    const onError = (error: Error) =>
      fail(
        new ApiError(
          499,
          'client_closed_request',
          `the client went away while sending the body: ${error.message}`,
        ),
      );
    // A client gone before the end of its body: no 'end' comes, and maybe no 'error' either.
    const onClose = () => onError(new Error('the connection closed'));
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
    incoming.resume();
  });
}

/** Without a node request (`app.request()`): the Web body, raced against the same timer. */
async function readWebBody(c: Context, limits: BodyLimits, deadline: RequestDeadline): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = lateTimer(limits, deadline, reject);
  });
  const text = c.req.text();
  try {
    const body = await Promise.race([text, late]);
    if (Buffer.byteLength(body) > limits.maxBytes) throw bodyTooLarge(limits.maxBytes);
    return body;
  } finally {
    clearTimeout(timer);
    text.catch(() => {});
  }
}

/** One timer for a body read: the body's timeout (408) or the request's deadline (504), sooner. */
function lateTimer(
  limits: BodyLimits,
  deadline: RequestDeadline,
  onLate: (error: ApiError) => void,
): NodeJS.Timeout {
  const remaining = deadline.remainingMs();
  const deadlineFirst = remaining <= limits.timeoutMs;
  return setTimeout(
    () => onLate(deadlineFirst ? deadlinePassed(deadline) : bodyTimedOut(limits.timeoutMs)),
    Math.max(0, deadlineFirst ? remaining : limits.timeoutMs),
  );
}

function bodyTimedOut(timeoutMs: number): ApiError {
  return new ApiError(
    408,
    'body_timeout',
    `the request body did not arrive within ${timeoutMs} ms (--body-timeout)`,
    { headers: { Connection: 'close' } },
  );
}

function deadlinePassed(deadline: RequestDeadline): ApiError {
  return new ApiError(
    504,
    'deadline_exceeded',
    `request deadline of ${deadline.ms} ms exceeded while reading the request body; nothing was scored`,
  );
}
