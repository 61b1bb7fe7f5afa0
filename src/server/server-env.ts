import type { Hono } from 'hono';

/** What the middleware sets on every request's context. */
export interface ServerEnv {
  Variables: {
    /** The request's id: the client's `X-Request-Id`, else a fresh UUID; echoed and stored with results. */
    requestId: string;
  };
}

export type ServerApp = Hono<ServerEnv>;
