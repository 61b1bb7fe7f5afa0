import { InvalidArgumentError } from 'commander';

const UNITS: Record<string, number> = {
  b: 1,
  kb: 1000,
  kib: 1024,
  mb: 1000 ** 2,
  mib: 1024 ** 2,
  gb: 1000 ** 3,
  gib: 1024 ** 3,
};

/** A size flag such as `16MiB`, `500kb` or `1048576` (bytes), in bytes. */
export function parseByteSize(flag: string): (value: string) => number {
  return (value) => {
    const match = /^(\d+(?:\.\d+)?)\s*([a-z]+)?$/i.exec(value.trim());
    const unit = UNITS[(match?.[2] ?? 'b').toLowerCase()];
    const bytes = match && unit !== undefined ? Math.floor(Number(match[1]) * unit) : Number.NaN;
    if (!Number.isFinite(bytes) || bytes < 1) {
      throw new InvalidArgumentError(
        `${flag} takes a size such as 16MiB, 500kb or 1048576 (bytes), got "${value}"`,
      );
    }
    return bytes;
  };
}
