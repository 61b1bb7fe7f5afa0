import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { RewardApp } from './create-reward-app.js';
import { listenError } from './listen-error.js';
import { DEFAULT_SERVER_OPTIONS } from './server-options.js';

/** A reward app on a socket. */
export interface ListeningRewardApp {
  /** `http://host:port`, with the port the OS picked for port 0. */
  readonly url: string;
  /**
   * Graceful stop: no new connections, idle keep-alive connections closed, and resolves once every
   * request in flight has been answered (each is bounded by the server's deadline). Before the
   * app was given, every connection is closed at once.
   */
  close(): Promise<void>;
}

/**
 * Listens on `host:port` and serves the app. The app may be a promise: the socket is then bound
 * first, so that a port already in use fails (`RK_LISTEN`, one line) before anything is made for
 * the app, such as a run in the store; requests arriving meanwhile wait for it.
 */
export async function listenRewardApp(
  rewardApp: RewardApp | PromiseLike<RewardApp>,
  options: {
    port: number;
    host: string;
    /** The app's `headersTimeoutMs` and `bodyTimeoutMs` (server defaults when left out). */
    headersTimeoutMs?: number;
    bodyTimeoutMs?: number;
  },
): Promise<ListeningRewardApp> {
  let ready: RewardApp | undefined = 'app' in rewardApp ? rewardApp : undefined;
  const pending = Promise.resolve(rewardApp).then((app) => {
    ready = app;
    return app;
  });
  // Once the app is there, a request goes straight to it: no await on the hot path.
  const fetch: RewardApp['app']['fetch'] = (request, env, context) =>
    ready
      ? ready.app.fetch(request, env, context)
      : pending.then((app) => app.app.fetch(request, env, context));
  // Bound before the app exists, so the socket's timeouts come with the address, not from the app.
  const { headersTimeoutMs, bodyTimeoutMs } = { ...DEFAULT_SERVER_OPTIONS, ...options };
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch,
        port: options.port,
        hostname: options.host,
        serverOptions: {
          // Node answers 408 and closes a connection whose headers trickle past this; the body has
          // its own timeout in the routes' reader, and this total is only a backstop for it.
          headersTimeout: headersTimeoutMs,
          requestTimeout: headersTimeoutMs + bodyTimeoutMs + 1000,
          // How often node checks those timeouts (30 s by default, which would stretch a 10 s one).
          connectionsCheckingInterval: Math.max(50, Math.min(1000, headersTimeoutMs / 4)),
        },
      },
      () => resolve(s as Server),
    ) as Server;
    s.once('error', (error) => reject(listenError(error, options)));
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        if (!ready) {
          server.closeAllConnections();
          return;
        }
        const app = ready;
        // A keep-alive connection that carried an in-flight request turns idle after its answer.
        const sweep = setInterval(() => {
          server.closeIdleConnections();
          if (app.requestsInFlight() === 0) server.closeAllConnections();
        }, 50);
        server.once('close', () => clearInterval(sweep));
      });
      return closing;
    },
  };
}
