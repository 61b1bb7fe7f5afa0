import { InvalidArgumentError } from 'commander';

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
