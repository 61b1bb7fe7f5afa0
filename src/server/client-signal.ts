import type { ServerResponse } from 'node:http';
import type { Context } from 'hono';

/**
 * Aborts when the client goes away before the answer is sent. Behind a node socket it listens to
 * the response's `close` itself: reading `c.req.raw.signal` makes the node adapter build a full
 * Web `Request` (headers, body stream, signal) per request, a measurable share of a fast route.
 * Without one (`app.request()` in tests, other runtimes) it is the request's own signal.
 */
export function clientSignal(c: Context): AbortSignal {
  const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
  if (!outgoing || typeof outgoing.once !== 'function') return c.req.raw.signal;
  const controller = new AbortController();
  if (outgoing.writableFinished) return controller.signal;
  if (outgoing.destroyed) {
    controller.abort(new Error('Client connection prematurely closed.'));
    return controller.signal;
  }
  outgoing.once('close', () => {
    if (!outgoing.writableFinished) controller.abort(new Error('Client connection prematurely closed.'));
  });
  return controller.signal;
}
