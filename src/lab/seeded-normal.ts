import { createRng } from '../core/index.js';

/** `n` draws from N(0, std²) by Box–Muller over the seeded mulberry32 stream: the same seed, the same floats. */
export function seededNormal(n: number, std: number, seed: number): Float32Array {
  const rng = createRng(seed);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 2) {
    const u = 1 - rng.next();
    const r = Math.sqrt(-2 * Math.log(u)) * std;
    const a = 2 * Math.PI * rng.next();
    out[i] = r * Math.cos(a);
    if (i + 1 < n) out[i + 1] = r * Math.sin(a);
  }
  return out;
}
