import { InvalidArgumentError } from 'commander';

/** An integer ≥ 0 flag, with an error naming the flag. */
export const nonNegativeInt = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new InvalidArgumentError(`${flag} expects an integer ≥ 0, got "${value}".`);
  return n;
};

/** Comma-separated ratios in [0, 1], e.g. 0,0.1,0.2,0.4. */
export const ratioList = (value: string): number[] => {
  const parts = value.split(',').map((s) => s.trim());
  const ratios = parts.map(Number);
  if (parts.some((p) => p === '') || ratios.some((r) => !Number.isFinite(r) || r < 0 || r > 1)) {
    throw new InvalidArgumentError(
      `--ratios expects numbers in [0, 1] separated by commas (e.g. 0,0.1,0.2,0.4), got "${value}".`,
    );
  }
  return ratios;
};

/** Comma-separated corruption modes. */
export const modeList = (value: string): Array<'drop' | 'flip'> => {
  const modes = value.split(',').map((s) => s.trim());
  if (modes.length === 0 || modes.some((m) => m !== 'drop' && m !== 'flip')) {
    throw new InvalidArgumentError(`--modes expects drop, flip or drop,flip, got "${value}".`);
  }
  return modes as Array<'drop' | 'flip'>;
};
