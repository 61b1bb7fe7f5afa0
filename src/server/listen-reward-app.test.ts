import type { AddressInfo } from 'node:net';
import { createServer } from 'node:net';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { RewardKitError } from '../core/index.js';
import type { RewardApp } from './create-reward-app.js';
import { listenRewardApp } from './listen-reward-app.js';

/** A reward app that answers every request with its path. */
const echoApp = (): RewardApp => {
  const app = new Hono();
  app.all('*', (c) => c.text(`at ${new URL(c.req.url).pathname}`));
  return { app, requestsInFlight: () => 0 } as unknown as RewardApp;
};

describe('listenRewardApp', () => {
  it('should fail a port in use with one RK_LISTEN line naming it', async () => {
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const error = await listenRewardApp(echoApp(), { port, host: '127.0.0.1' }).catch((e: unknown) => e);
      expect(RewardKitError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({
        code: 'RK_LISTEN',
        message: `port ${port} on 127.0.0.1 is already in use: stop what listens there, or choose another port (--port)`,
      });
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  });

  it('should bind before the app is given, and answer the requests that came meanwhile once it is', async () => {
    let give: (app: RewardApp) => void = () => {};
    const listening = await listenRewardApp(
      new Promise<RewardApp>((resolve) => {
        give = resolve;
      }),
      { port: 0, host: '127.0.0.1' },
    );
    try {
      let answered = false;
      const early = fetch(`${listening.url}/healthz`).then(async (response) => {
        answered = true;
        return response.text();
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(answered).toBe(false);
      give(echoApp());
      expect(await early).toBe('at /healthz');
    } finally {
      await listening.close();
    }
  });

  it('should close at once when the app was never given', async () => {
    const listening = await listenRewardApp(new Promise<RewardApp>(() => {}), { port: 0, host: '127.0.0.1' });
    const pending = fetch(`${listening.url}/healthz`).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await listening.close();
    expect(await pending).toBeInstanceOf(Error);
  });
});
