// Math verification benchmark: rows/s on numeric (GSM8K-style) and symbolic rows next to a naive
// regex scorer measured in the same run, group-shaped rows (one reference, 16 rollouts), and the
// share of rows each extraction rule decides on the bundled example and on a generated MATH-style
// set. `node bench/math.mjs` (after `npm run build`) replaces its section of BENCHMARKS.md;
// `--before <dist>` adds the same figures for another build of rewardkit (an earlier release's
// `dist/`), measured in the same run; `npm run bench` includes this section with the others.
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateMathStyleSet } from './math-style-set.mjs';
import { cpuClock, fmt, replaceSection, throughput } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** GSM8K-style rows: plain numbers behind `####`, boxes, anchors, separators and units. */
function numericRows() {
  return Array.from({ length: 2000 }, (_, i) => {
    const n = (i * 7919) % 100000;
    const variants = [
      [`So the total is ${n} apples.\n#### ${n}`, String(n)],
      [`The answer is $\\boxed{${n}}$.`, String(n)],
      [`Therefore the final answer is ${fmt(n)} dollars.`, String(n)],
      [`#### ${n + 1}`, String(n)],
    ];
    return variants[i % variants.length];
  });
}

/**
 * Symbolic rows, each answer and reference text distinct:
 * expansions, radicals, trig values, linear forms, intervals and sets with varying coefficients.
 */
function symbolicRows() {
  // More rows than the verifier memoizes texts (2,048), so every pass parses every row afresh.
  return Array.from({ length: 6000 }, (_, i) => {
    const k = 2 + (i % 997);
    const forms = [
      [`The answer is $\\boxed{x^2 + ${2 * k}x + ${k * k}}$`, `(x+${k})^2`],
      [`$\\boxed{\\frac{${k}\\sqrt{3}}{2}}$`, `${k}\\sin(\\pi/3)`],
      [`$\\boxed{${k}\\sqrt{2}}$`, `\\sqrt{${2 * k * k}}`],
      [`$\\boxed{\\frac{x+${k}}{2}}$`, `\\frac{x}{2} + \\frac{${k}}{2}`],
      [`$\\boxed{(${k}, ${k + i}]}$`, `(${k},${k + i}]`],
      [`$\\boxed{\\{${k + i}, ${k}\\}}$`, `\\{${k},${k + i}\\}`],
    ];
    return forms[i % forms.length];
  });
}

/** One prompt's rollouts: 16 responses against the same full-solution reference. */
function groupRows() {
  const reference =
    'The two numbers sum to $18$ and differ by $4$, so the larger one is $11$ and the answer is $\\boxed{\\frac{77}{2}}$.';
  return Array.from({ length: 16 }, (_, i) => [
    i % 2 === 0
      ? `... so the answer is $\\boxed{\\dfrac{77}{2}}$.`
      : `... which gives \\boxed{${38 + (i % 3)}.5}`,
    reference,
  ]);
}

/** The bundled example's math rows (the `math` preset's data sources). */
function exampleRows() {
  return readFileSync(join(root, 'examples/mixed.jsonl'), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l))
    .filter((r) => /gsm8k|math|aime/i.test(r.data_source ?? '') && typeof r.response === 'string')
    .map((r) => [r.response, r.reference]);
}

/**
 * Suites transcribed from other graders' public test cases (`src/verify/math/__fixtures__/`, each
 * row citing its file and commit): {response, reference, expected, source}.
 */
const GRADER_SUITES = [
  ['nemo-skills-math-equal', 'NeMo-Skills `math_equal` tests (both ways round)'],
  ['multilingual-answer-markers', 'MGSM / multilingual MMLU answer markers (lm-eval, simple-evals)'],
  ['option-letters-in-prose', 'option letters in prose (OpenCompass, simple-evals, lm-eval MMLU-Pro/GPQA)'],
];

function graderSuite(name) {
  return readFileSync(join(root, `src/verify/math/__fixtures__/${name}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** Agreement with a suite's expected verdicts, and how many of its wrong answers were accepted. */
function suiteAgreement(verifyMath, cases) {
  let agree = 0;
  let falseAccepts = 0;
  for (const c of cases) {
    const correct = verifyMath(c.response, c.reference).correct;
    if (correct === c.expected) agree++;
    if (correct && !c.expected) falseAccepts++;
  }
  return { agree, falseAccepts, wrong: cases.filter((c) => !c.expected).length, total: cases.length };
}

/**
 * Rows per second of CPU time (user and system) spent on `fn`: on a machine shared with other
 * work, wall time counts their load too, which is not the verifier's.
 */
const cpuThroughput = (items, fn, ms) => throughput(items, fn, ms, cpuClock);

/** Each verifier's median rate over rounds that alternate them, so that both see the same machine. */
function alternated(items, verifiers, call, ms, rounds = 3) {
  const rates = verifiers.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, verify] of verifiers.entries()) {
      rates[i].push(cpuThroughput(items, (item) => call(verify, item), ms));
    }
  }
  return rates.map((r) => r.sort((a, b) => a - b)[Math.floor(r.length / 2)]);
}

async function loadVerifier(dist) {
  return (await import(pathToFileURL(join(dist, 'verify/math/index.js')).href)).verifyMath;
}

function ruleShares(verifyMath, rows) {
  const counts = new Map();
  let correct = 0;
  for (const [response, reference] of rows) {
    const r = verifyMath(response, reference);
    counts.set(r.rule, (counts.get(r.rule) ?? 0) + 1);
    if (r.correct) correct++;
  }
  return { counts, correct, total: rows.length };
}

const RULES = ['boxed', 'anchor', 'gsm8k', 'choice', 'math_span', 'bare_expression', 'last_number', 'none'];

export async function mathSection({ quick = false, before } = {}) {
  const ms = quick ? 300 : 1500;
  const verifyMath = await loadVerifier(join(root, 'dist'));
  const old = before ? await loadVerifier(resolve(before)) : null;
  const numeric = numericRows();
  const groups = groupRows();
  const symbolic = symbolicRows();
  // Baseline: the floor a verifier cannot beat — pull the text after "####" or the last number
  // with one regex and compare strings, which is what naive GSM8K scorers do.
  const naive = ([response, gold]) =>
    (/(-?[\d,.]+)\D*$/.exec(response)?.[1] ?? '').replace(/,/g, '') === gold;
  const naiveRate = cpuThroughput(numeric, naive, ms);
  const verifiers = old ? [verifyMath, old] : [verifyMath];
  const rates = (rows, ms) => alternated(rows, verifiers, (verify, [r, g]) => verify(r, g), ms);
  const [numericNow, numericThen] = rates(numeric, ms);
  const [symbolicNow, symbolicThen] = rates(symbolic, quick ? 300 : 3000);
  const [groupNow, groupThen] = rates(groups, ms);
  const now = { numeric: numericNow, symbolic: symbolicNow, group: groupNow };
  const then = old ? { numeric: numericThen, symbolic: symbolicThen, group: groupThen } : null;
  const row = (label, key, digits) =>
    `| ${label} | ${fmt(now[key])} | ${fmt(now[key] / naiveRate, digits)}× |${then ? ` ${fmt(then[key])} | ${fmt(now[key] / then[key], 2)}× |` : ''}`;
  const suites = GRADER_SUITES.map(([name, label]) => {
    const cases = graderSuite(name);
    const [rateNow, rateThen] = alternated(
      cases,
      verifiers,
      (verify, c) => verify(c.response, c.reference),
      ms,
    );
    return {
      label,
      now: { ...suiteAgreement(verifyMath, cases), rate: rateNow },
      before: old ? { ...suiteAgreement(old, cases), rate: rateThen } : null,
    };
  });
  const agreement = (a) =>
    `${fmt(a.agree)}/${fmt(a.total)} (${fmt((100 * a.agree) / a.total, 1)}%) | ${fmt(a.falseAccepts)}/${fmt(a.wrong)} | ${fmt(a.rate)}`;
  const suiteRows = suites
    .map((s) => `| ${s.label} | ${agreement(s.now)} |${s.before ? ` ${agreement(s.before)} |` : ''}`)
    .join('\n');
  const generated = generateMathStyleSet(quick ? 400 : 2000);
  const shares = [
    ['bundled example (`examples/mixed.jsonl`, math rows)', exampleRows()],
    [
      `generated MATH-style set (${fmt(generated.length)} rows, seeded)`,
      generated.map((r) => [r.response, r.reference]),
    ],
  ].map(([name, rows]) => ({ name, ...ruleShares(verifyMath, rows) }));
  const share = (s, rule) => `${fmt((100 * (s.counts.get(rule) ?? 0)) / s.total, 1)}%`;
  const generatedTruth = generated.reduce((n, r) => n + (r.correct ? 1 : 0), 0);
  const generatedAgree = generated.filter(
    (r) => verifyMath(r.response, r.reference).correct === r.correct,
  ).length;

  return `## Math verification (one core)

Rows per second of CPU time (user + system; other processes on a shared machine do not count), each build's median of three rounds that alternate the builds.

| case | rows/s | vs naive regex baseline |${then ? ' before (`--before` build) | after / before |' : ''}
|---|---:|---:|${then ? '---:|---:|' : ''}
| naive regex + string compare (baseline) | ${fmt(naiveRate)} | 1.00× |${then ? ' | |' : ''}
${row('plain numeric answers (GSM8K/MATH style: ####, boxed, anchors, separators, units)', 'numeric', 3)}
${row('symbolic answers (expansion, radicals, trig, intervals, sets)', 'symbolic', 4)}
${row('one group: 16 rollouts against one full-solution reference', 'group', 3)}

Target ≥ 5,000 rows/s for plain numeric answers: **${now.numeric >= 5000 ? 'met' : 'NOT met'}** (${fmt(now.numeric / 5000, 1)}× the target).

Share of rows decided by each extraction rule:

| set | ${RULES.join(' | ')} |
|---|${RULES.map(() => '---:').join('|')}|
${shares.map((s) => `| ${s.name} | ${RULES.map((rule) => share(s, rule)).join(' | ')} |`).join('\n')}

Agreement with other graders' public test cases (\`src/verify/math/__fixtures__/\`, each row citing the file and commit it comes from; \`src/verify/math/grader-suites.test.ts\` holds each at ≥ 95% and 0 false accepts): agreement, false accepts over the cases the suite calls wrong, rows/s${then ? ', this build then the `--before` build' : ''}:

| suite | agreement | false accepts | rows/s |${then ? ' before: agreement | false accepts | rows/s |' : ''}
|---|---:|---:|---:|${then ? '---:|---:|---:|' : ''}
${suiteRows}

On the generated set the verdict agrees with the generator's own label on ${fmt(generatedAgree)} of ${fmt(generated.length)} rows (${fmt((100 * generatedAgree) / generated.length, 1)}%; ${fmt(generatedTruth)} rows are correct answers, the rest near misses: a changed digit, a dropped bracket, a wrong sign, an answer enumeration).`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const quick = process.argv.includes('--quick');
  const at = process.argv.indexOf('--before');
  const section = await mathSection({ quick, before: at > 0 ? process.argv[at + 1] : undefined });
  process.stdout.write(`${section}\n`);
  if (!quick) {
    const path = join(root, 'BENCHMARKS.md');
    writeFileSync(path, replaceSection(readFileSync(path, 'utf8'), 'Math verification', section));
  }
}
