/**
 * Why a run is below its experiment's documented minimum (docs/lab.md), for the `why` of a
 * `too_small` verdict; undefined when every option reaches its minimum. `minimum` holds the
 * options that have one, under their option names; the message names them as flags.
 */
export function belowMinimum<T extends object>(
  options: T,
  minimum: Partial<Record<keyof T, number>>,
): string | undefined {
  const low = Object.entries(minimum as Record<string, number>).filter(
    ([key, least]) => ((options as Record<string, unknown>)[key] as number) < least,
  );
  if (low.length === 0) return undefined;
  const flag = (key: string) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
  return `below the documented minimum: ${low
    .map(([key, least]) => `${flag(key)} ${(options as Record<string, unknown>)[key]} < ${least}`)
    .join(', ')} (docs/lab.md)`;
}
