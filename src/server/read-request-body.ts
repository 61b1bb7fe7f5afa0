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
export async function readRequestBody(
  c: Context,
  limits: BodyLimits,
  deadline: RequestDeadline,
): Promise<string> {
  const incoming = incomingOf(c);
  const stop = new AbortController();
  const text = incoming ? readIncoming(incoming, limits.maxBytes, stop.signal) : c.req.text();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    const deadlineFirst = deadline.remainingMs() <= limits.timeoutMs;
    timer = setTimeout(
      () => reject(deadlineFirst ? deadlinePassed(deadline) : bodyTimedOut(limits.timeoutMs)),
      Math.max(0, deadlineFirst ? deadline.remainingMs() : limits.timeoutMs),
    );
  });
  try {
    const body = await Promise.race([text, late]);
    if (!incoming && Buffer.byteLength(body) > limits.maxBytes) throw bodyTooLarge(limits.maxBytes);
    return body;
  } finally {
    clearTimeout(timer);
    stop.abort();
    text.catch(() => {});
  }
}

/** Collects the body until it ends, it passes `maxBytes`, or `stop` aborts (a timeout). */
function readIncoming(incoming: IncomingMessage, maxBytes: number, stop: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      stop.removeEventListener('abort', cleanup);
    };
    stop.addEventListener('abort', cleanup, { once: true });
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        reject(bodyTooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      // As `Request.text()` decodes: UTF-8, a byte order mark dropped, bad bytes replaced.
      resolve(new TextDecoder().decode(Buffer.concat(chunks, size)));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(
        new ApiError(
          499,
          'client_closed_request',
          `the client went away while sending the body: ${error.message}`,
        ),
      );
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.resume();
  });
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
