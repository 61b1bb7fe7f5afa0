#!/usr/bin/env node
import { runCli } from './run-cli.js';

// A reader that stops early (`rewardkit … | head`) closes the pipe: end quietly, as Unix tools do,
// instead of crashing on the unhandled EPIPE.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

process.exitCode = await runCli(process.argv.slice(2));
