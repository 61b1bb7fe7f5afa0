import { createRng } from '../core/index.js';

// A small probabilistic grammar: English-like sentences with agreement, adjectives, relative
// clauses and punctuation — enough structure for depth and norm placement to matter, generated
// from a seed instead of shipping a text file.
const NOUNS = [
  'river',
  'lantern',
  'miller',
  'orchard',
  'sailor',
  'teacher',
  'garden',
  'harbor',
  'village',
  'falcon',
  'letter',
  'storm',
];
const VERBS = ['watches', 'follows', 'remembers', 'carries', 'answers', 'finds', 'guards', 'praises'];
const ADJECTIVES = ['old', 'quiet', 'bright', 'patient', 'distant', 'gentle', 'crooked', 'silver'];
const ADVERBS = ['slowly', 'often', 'never', 'gladly', 'again'];
const PLACES = ['by the mill', 'under the bridge', 'in the morning', 'near the sea', 'after the rain'];

type Rng = ReturnType<typeof createRng>;
const pick = <T>(rng: Rng, items: readonly T[]): T => items[Math.floor(rng.next() * items.length)] as T;

function nounPhrase(rng: Rng, depth: number): string {
  const adjective = rng.next() < 0.4 ? `${pick(rng, ADJECTIVES)} ` : '';
  const head = `the ${adjective}${pick(rng, NOUNS)}`;
  if (depth < 2 && rng.next() < 0.2) return `${head} that ${pick(rng, VERBS)} ${nounPhrase(rng, depth + 1)}`;
  return head;
}

function sentence(rng: Rng): string {
  const adverb = rng.next() < 0.3 ? `${pick(rng, ADVERBS)} ` : '';
  const place = rng.next() < 0.35 ? ` ${pick(rng, PLACES)}` : '';
  const body = `${nounPhrase(rng, 0)} ${adverb}${pick(rng, VERBS)} ${nounPhrase(rng, 0)}${place}`;
  const joined =
    rng.next() < 0.2 ? `${body}, and ${nounPhrase(rng, 0)} ${pick(rng, VERBS)} ${nounPhrase(rng, 0)}` : body;
  return `${joined.charAt(0).toUpperCase()}${joined.slice(1)}${rng.next() < 0.15 ? '?' : '.'}`;
}

/** At least `chars` characters of grammar text, the same for the same seed. */
export function grammarText(chars: number, seed: number): string {
  const rng = createRng(seed);
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const s = sentence(rng);
    parts.push(s);
    length += s.length + 1;
  }
  return parts.join(' ');
}

/** A character vocabulary: the text's distinct characters, sorted, each mapped to its index. */
export interface CharCorpus {
  chars: string[];
  train: Int32Array;
  validation: Int32Array;
}

/** Encodes `text` at the character level, the last `validationShare` held out. */
export function charCorpus(text: string, validationShare = 0.1): CharCorpus {
  const chars = [...new Set(text)].sort();
  const index = new Map(chars.map((c, i) => [c, i]));
  const ids = Int32Array.from(text, (c) => index.get(c) as number);
  const cut = Math.floor(ids.length * (1 - validationShare));
  return { chars, train: ids.subarray(0, cut), validation: ids.subarray(cut) };
}

/**
 * A next-character batch: `batch` windows of `seqLen + 1` tokens at offsets drawn from the
 * seed and step, so a resumed run reads the same data at the same step.
 */
export function lmBatch(
  ids: Int32Array,
  o: { batch: number; seqLen: number; seed: number; step: number },
): { inputs: Int32Array; targets: Int32Array } {
  const rng = createRng(o.seed * 1_000_003 + o.step);
  const inputs = new Int32Array(o.batch * o.seqLen);
  const targets = new Int32Array(o.batch * o.seqLen);
  for (let b = 0; b < o.batch; b++) {
    const start = Math.floor(rng.next() * (ids.length - o.seqLen - 1));
    inputs.set(ids.subarray(start, start + o.seqLen), b * o.seqLen);
    targets.set(ids.subarray(start + 1, start + o.seqLen + 1), b * o.seqLen);
  }
  return { inputs, targets };
}
