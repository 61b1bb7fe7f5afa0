import type { IncomingMessage } from 'node:http';
import type { MiddlewareHandler } from 'hono';
import { incomingOf } from './read-request-body.js';

/** The most of an unread body the server reads (and drops) before answering. */
export const DRAIN_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Reads and drops what is left of a request body the route did not read (a 413 from the declared
 * length, a 401, a 400 naming a header) before the answer goes out. Node closes a connection
 * whose request is still arriving when it answers, and a client that writes its whole body before
 * reading — Python's urllib, so verl's and OpenRLHF's clients — then gets a broken pipe instead of
 * the answer. Bounded: past {@link DRAIN_MAX_BYTES} or `timeoutMs` the answer goes out and the
 * connection is closed. Answers that close the connection anyway (a body that trickled past its
 * timeout) are not drained.
 */
export function drainUnreadBody(timeoutMs: number): MiddlewareHandler {
  return async function drainUnreadBody(c, next) {
    await next();
    const incoming = incomingOf(c);
    if (!incoming || incoming.complete || incoming.destroyed) return;
    if (c.res.headers.get('connection')?.toLowerCase() === 'close') return;
    if (!(await drain(incoming, timeoutMs))) c.header('Connection', 'close');
  };
}

/** Whether the body ended within the bounds. */
function drain(incoming: IncomingMessage, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let seen = 0;
    const done = (ended: boolean) => {
      clearTimeout(timer);
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onFail);
      incoming.off('close', onFail);
      resolve(ended);
    };
    const onData = (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_MAX_BYTES) done(false);
    };
    const onEnd = () => done(true);
    const onFail = () => done(false);
    const timer = setTimeout(onFail, timeoutMs);
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onFail);
    incoming.on('close', onFail);
    incoming.resume();
  });
}
