import type { Server } from 'node:http';
import type { Command } from 'commander';
import { port } from '../port-flag.js';
import { openStoreForReading, STORE_FLAG_HELP } from '../store-location.js';

interface ViewFlags {
  store?: string;
  port: number;
  host: string;
  allowLabels?: boolean;
}

export function registerViewCommand(view: Command): void {
  view
    .option('--store <path|url>', STORE_FLAG_HELP)
    .option('-p, --port <n>', 'port to listen on; 0 picks a free one', port, 7777)
    .option(
      '--host <address>',
      'address to listen on; the inspector has no login, so keep it on loopback',
      '127.0.0.1',
    )
    .option(
      '--allow-labels',
      'let a person label samples (correct, incorrect or a score, with a note), written to the store',
    )
    .addHelpText(
      'after',
      `
Prints the URL it listens on as the one line of stdout; open it in a browser. The store is read,
never written (a SQLite file is opened read-only), unless --allow-labels: then labels are written
beside the results, for calibrate --labels-from-store. See docs/view.md.

Examples:
  rewardkit view
  rewardkit view --store runs.sqlite --port 0
  rewardkit view --store runs.sqlite --allow-labels
  rewardkit view --store postgres://rewardkit@db.internal/rewards`,
    )
    .action(async (flags: ViewFlags) => {
      const { serve } = await import('@hono/node-server');
      const { createViewApp } = await import('../../view/index.js');
      const { listenError } = await import('../../server/listen-error.js');
      const allowLabels = flags.allowLabels === true;
      const store = await openStoreForReading(flags.store, { writable: allowLabels });
      const app = createViewApp({ store, allowLabels });
      const server = serve({ fetch: app.fetch, port: flags.port, hostname: flags.host }) as Server;
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('listening', resolve);
          server.once('error', (error) => reject(listenError(error, flags)));
        });
      } catch (error) {
        // A port in use: one line, and the store closed so nothing holds the process.
        await store.close();
        throw error;
      }
      const address = server.address();
      const where =
        typeof address === 'object' && address
          ? `${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`
          : flags.host;
      process.stdout.write(`http://${where}/\n`);
      process.stderr.write(
        `rewardkit view: reading the ${store.kind} store${allowLabels ? ', writing labels' : ''}; Ctrl-C stops\n`,
      );
      await new Promise<void>((resolve) => {
        process.once('SIGTERM', resolve);
        process.once('SIGINT', resolve);
      });
      server.close();
      server.closeAllConnections();
      await store.close();
    });
}
