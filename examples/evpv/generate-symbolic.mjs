// Writes symbolic-candidates.jsonl: symbolic EVPV problems (fact dictionaries as "images") with
// best-of-N candidates whose step judgments are written here by rule, standing in for the LLM step
// judge. Run `npm run build` first, then `node examples/evpv/generate-symbolic.mjs [seed]`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createRng } from '../../dist/index.js';

const seed = Number(process.argv[2] ?? 20261123);
const rng = createRng(seed);
const pick = (items) => items[rng.int(0, items.length - 1)];
const weighted = (entries) => {
  let u = rng.next() * entries.reduce((a, [, w]) => a + w, 0);
  for (const [value, w] of entries) if ((u -= w) < 0) return value;
  return entries.at(-1)[0];
};
const RELATIONS = ['left of', 'right of', 'above', 'below', 'in front of', 'behind'];
const COLOURS = ['red', 'blue', 'green', 'yellow'];
const misread = (n) => Math.max(0, n + pick([-2, -1, 1, 2]));

function problem(index) {
  const apples = rng.int(2, 9);
  const oranges = rng.int(2, 9);
  const colour = pick(COLOURS);
  const facts = {
    'apples on the table': apples,
    'oranges on the table': oranges,
    'cup relative to plate': pick(RELATIONS),
    'cat present': pick(['yes', 'no']),
    'cup colour': colour,
  };
  const total = (a, b) => a + b;
  const candidate = (kind, form) => {
    let [a, b, c] = [apples, oranges, colour];
    if (kind === 'misread-one') rng.next() < 0.5 ? (a = misread(a)) : (b = misread(b));
    if (kind === 'misread-both') [a, b] = [misread(a), misread(b)];
    if (kind === 'misread-colour') c = pick(COLOURS.filter((x) => x !== colour));
    // A misreading that happens to give the right total is not a wrong answer: read again.
    if (kind.startsWith('misread-') && kind !== 'misread-colour' && total(a, b) === total(apples, oranges)) b += 1;
    const sum = kind === 'arithmetic' ? total(a, b) + pick([-1, 1]) : total(a, b);
    const steps = [
      { text: `I count the apples on the table: ${a}.`, visual_dependency: `apples on the table: ${a}` },
      { text: `I count the oranges on the table: ${b}.`, visual_dependency: `oranges on the table: ${b}` },
      { text: `The ${c} cup is not fruit, so it does not count.`, visual_dependency: `cup colour: ${c}` },
      { text: `${a} + ${b} = ${sum}.`, visual_dependency: '' },
      { text: `So there are ${sum} pieces of fruit.`, visual_dependency: 'null' },
    ];
    // The stand-in step judge: right about arithmetic, blind to misread premises, and sometimes
    // wrongly failing a sound step (the noise a real PRM has).
    const step_scores = [1, 1, 1, 1, 1];
    if (kind === 'arithmetic') step_scores.splice(3, 2, -1, -1);
    if (kind === 'noisy') step_scores[rng.int(2, 4)] = -1;
    const output =
      form === 'json'
        ? { steps, final_answer: String(sum) }
        : `${steps
            .map((s) =>
              s.visual_dependency && s.visual_dependency !== 'null'
                ? `<step>${s.text}\n<visual_dependency>${s.visual_dependency}</visual_dependency></step>`
                : `<step>${s.text}</step>`,
            )
            .join('\n')}\n<answer>${sum}</answer>`;
    return { kind, output, step_scores };
  };
  const good = weighted([
    ['clean', 0.3],
    ['noisy', 0.45],
    ['misread-colour', 0.25],
  ]);
  const kinds = [
    good,
    ...Array.from({ length: 3 }, () =>
      weighted([
        ['misread-one', 0.25],
        ['misread-both', 0.45],
        ['arithmetic', 0.3],
      ]),
    ),
  ];
  const candidates = rng.shuffle(kinds).map((kind, i) => candidate(kind, i % 2 === 0 ? 'tags' : 'json'));
  return {
    id: `sym-${String(index + 1).padStart(3, '0')}`,
    question: 'How many apples and oranges are on the table in total?',
    image: { caption: `A table with fruit and a ${colour} cup.`, facts },
    answer: String(total(apples, oranges)),
    candidates,
  };
}

const rows = Array.from({ length: 40 }, (_, i) => problem(i));
// One unreadable candidate output: it stays in its place and is never selected.
rows[0].candidates.push({ kind: 'unreadable', output: 'I think the answer is 7.', step_scores: [1] });
const out = fileURLToPath(new URL('symbolic-candidates.jsonl', import.meta.url));
writeFileSync(out, `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`);
console.log(`wrote ${rows.length} problems to ${out} (seed ${seed})`);
