import type { Rng } from '../../core/index.js';
import { RELATION_CONVERSES } from './rule-premise-audit.js';
import type { VisualConstraints } from './visual-constraints.js';

export type CorruptionMode = 'drop' | 'flip';

/** The random draws for one key fact: `u` decides whether it is corrupted at ratio r (u < r), `choice` how. */
export interface FactDraw {
  readonly u: number;
  readonly choice: number;
}

/**
 * One draw per key fact. Drawing once and comparing with each ratio makes the corrupted sets
 * nested (what is corrupted at r is corrupted at every larger r), so the curve measures the
 * ratio, not the noise between independent draws.
 */
export function drawCorruption(constraints: VisualConstraints, rng: Rng): FactDraw[] {
  return constraints.key_facts.map(() => ({ u: rng.next(), choice: rng.next() }));
}

/** ×{0.5, 0.8, 1.2, 1.5, 2} or ±{1, 2}, chosen uniformly. */
const NUMBER_FLIPS: ReadonlyArray<(x: number) => number> = [
  (x) => x * 0.5,
  (x) => x * 0.8,
  (x) => x * 1.2,
  (x) => x * 1.5,
  (x) => x * 2,
  (x) => x + 1,
  (x) => x - 1,
  (x) => x + 2,
  (x) => x - 2,
];

/** A perturbed number; integers stay integers (counts), and a perturbation that rounds back to x becomes x + 1. */
export function flipNumber(x: number, choice: number): number {
  const flip = NUMBER_FLIPS[Math.min(NUMBER_FLIPS.length - 1, Math.floor(choice * NUMBER_FLIPS.length))] as (
    x: number,
  ) => number;
  const raw = flip(x);
  const y = Number.isInteger(x) ? Math.round(raw) : Math.round(raw * 1e6) / 1e6;
  return y === x ? x + 1 : y;
}

const RELATIONS = Object.keys(RELATION_CONVERSES).sort((a, b) => b.length - a.length);
const relationPattern = new RegExp(`\\b(${RELATIONS.join('|')})\\b`, 'i');

/**
 * FLIP for one fact: its last number perturbed, else its first spatial relation swapped for the
 * converse (left of ↔ right of, above ↔ below, …); a fact with neither is returned unchanged.
 */
export function flipFact(fact: string, choice: number): string {
  const numbers = [...fact.matchAll(/-?\d+(?:\.\d+)?/g)];
  const last = numbers.at(-1);
  if (last?.index !== undefined) {
    const flipped = flipNumber(Number(last[0]), choice);
    return `${fact.slice(0, last.index)}${flipped}${fact.slice(last.index + last[0].length)}`;
  }
  return fact.replace(relationPattern, (word) => RELATION_CONVERSES[word.toLowerCase()] ?? word);
}

/** DROP removes each key fact with probability r; FLIP perturbs each with probability r. */
export function corruptConstraints(
  constraints: VisualConstraints,
  mode: CorruptionMode,
  ratio: number,
  draws: readonly FactDraw[],
): VisualConstraints {
  const hit = (i: number) => (draws[i]?.u ?? 1) < ratio;
  const key_facts =
    mode === 'drop'
      ? constraints.key_facts.filter((_, i) => !hit(i))
      : constraints.key_facts.map((f, i) => (hit(i) ? flipFact(f, draws[i]?.choice ?? 0) : f));
  return { ...constraints, key_facts };
}
