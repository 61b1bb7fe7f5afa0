import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import type { RewardApp } from './create-reward-app.js';

/** A reward app on a socket. */
export interface ListeningRewardApp {
  /** `http://host:port`, with the port the OS picked for port 0. */
  readonly url: string;
  /**
   * Graceful stop: no new connections, idle keep-alive connections closed, and resolves once every
   * request in flight has been answered (each is bounded by the server's deadline).
   */
  close(): Promise<void>;
}

export async function listenRewardApp(
  rewardApp: RewardApp,
  options: { port: number; host: string },
): Promise<ListeningRewardApp> {
  const { headersTimeoutMs, bodyTimeoutMs } = rewardApp.options;
  const server = await new Promise<Server>((resolve, reject) => {
    const s = serve(
      {
        fetch: rewardApp.app.fetch,
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
    s.once('error', reject);
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
        // A keep-alive connection that carried an in-flight request turns idle after its answer.
        const sweep = setInterval(() => {
          server.closeIdleConnections();
          if (rewardApp.requestsInFlight() === 0) server.closeAllConnections();
        }, 50);
        server.once('close', () => clearInterval(sweep));
      });
      return closing;
    },
  };
}
