import { InvalidArgumentError } from 'commander';

/** `--port`: 0-65535, where 0 lets the OS pick a free port. */
export const port = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new InvalidArgumentError(`--port expects 0-65535 (0 picks a free port), got "${value}".`);
  }
  return n;
};
