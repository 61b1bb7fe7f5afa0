import { createRng } from '../rng.js';

/** `n` standard bivariate normal pairs with correlation `rho` (Box–Muller on the seeded RNG): MI −½ln(1−ρ²). */
export function gaussianPairs(rho: number, n: number, seed: number): { x: number[]; y: number[] } {
  const rng = createRng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
  const x: number[] = [];
  const y: number[] = [];
  for (let i = 0; i < n; i++) {
    const a = normal();
    x.push(a);
    y.push(rho * a + Math.sqrt(1 - rho * rho) * normal());
  }
  return { x, y };
}
