import { appendFileSync } from 'node:fs';
import fc from 'fast-check';

/** Every property runs from this seed, so a failure in CI is the same failure on a laptop. */
export const PROPERTY_SEED = 27;

/** Longest one generated input may take before the run counts as a hang. */
const HANG_MS = 10_000;

/**
 * Runs a property with the project's fixed seed and `numRuns` inputs, failing on any input that
 * throws, returns false or (async) takes longer than `HANG_MS`. Each run is reported on stderr as
 * `property <name>: <n> inputs (seed 27)` — and appended as a JSON line to `$RK_PROPERTY_LOG`
 * when set, which is how BENCHMARKS.md's counts are gathered.
 */
export async function checkProperty<Ts>(
  name: string,
  property: fc.IAsyncProperty<Ts> | fc.IProperty<Ts>,
  numRuns: number,
): Promise<void> {
  const started = performance.now();
  await fc.assert(property, { seed: PROPERTY_SEED, numRuns, plugins: [fc.timeout(HANG_MS)] });
  const ms = Math.round(performance.now() - started);
  process.stderr.write(`property ${name}: ${numRuns} inputs (seed ${PROPERTY_SEED}) in ${ms} ms\n`);
  const log = process.env.RK_PROPERTY_LOG;
  if (log) appendFileSync(log, `${JSON.stringify({ name, numRuns, seed: PROPERTY_SEED, ms })}\n`);
}
