import { RewardKitError } from '../core/index.js';

/**
 * Why the server could not listen on `host:port`, as one line saying what to change
 * (`RK_LISTEN`): a port already in use, one that needs privileges, an address not of this machine.
 */
export function listenError(error: unknown, where: { port: number; host: string }): RewardKitError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const at = `port ${where.port} on ${where.host}`;
  const message =
    code === 'EADDRINUSE'
      ? `${at} is already in use: stop what listens there, or choose another port (--port)`
      : code === 'EACCES'
        ? `no permission to listen on ${at} (ports below 1024 need privileges): choose another port (--port)`
        : code === 'EADDRNOTAVAIL'
          ? `cannot listen on ${at}: ${where.host} is not an address of this machine (--host)`
          : `cannot listen on ${at}: ${error instanceof Error ? error.message : String(error)}`;
  return new RewardKitError('RK_LISTEN', message, { cause: error });
}
