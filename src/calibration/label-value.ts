/**
 * A label as a number in [0, 1]: `true`/`false` are 1/0, a number must lie in [0, 1]. Anything
 * else (a string, null, 2) is undefined: unknown, never read as 0.
 */
export function labelValue(raw: unknown): number | undefined {
  if (raw === true) return 1;
  if (raw === false) return 0;
  if (typeof raw === 'number' && raw >= 0 && raw <= 1) return raw;
  return undefined;
}
