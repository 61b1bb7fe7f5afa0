// Calibration fit time on 100k labelled scores: isotonic (sort + pool-adjacent-violators) and
// Platt (Newton steps), each next to a baseline measured in the same run (sorting the points; one
// pass of the logistic loss), plus what `rewardkit calibrate` spends on the 5-fold cross-fitted
// summary and what applying a map costs per score. CPU time of this process, median of the repeats.
// `bench/run.mjs` adds this section to BENCHMARKS.md; `node bench/calibration.mjs [--quick]`
// prints it alone (build first).
import { cpuClock } from './measure.mjs';

const N = 100_000;

/** Median CPU milliseconds of `repeats` runs of `fn` (after one warm-up run). */
function medianMs(fn, repeats) {
  fn();
  const times = [];
  for (let i = 0; i < repeats; i++) {
    const start = cpuClock();
    fn();
    times.push(cpuClock() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** The "Calibration" section of BENCHMARKS.md. */
export async function calibrationSection({ quick = false, fmt }) {
  const { createRng } = await import('../dist/core/index.js');
  const { applyCalibration, calibrationSummary, fitCalibrationMap, fitPlatt } = await import(
    '../dist/calibration/index.js'
  );
  // The score is a known overconfident distortion of the true probability q; the label ~ Bernoulli(q).
  const rng = createRng(30);
  const points = Array.from({ length: N }, () => {
    const q = 0.02 + 0.96 * rng.next();
    return { score: 1 / (1 + Math.exp(-(3 * Math.log(q / (1 - q)) + 1))), label: rng.next() < q ? 1 : 0 };
  });
  const scores = points.map((p) => p.score);
  const labels = points.map((p) => p.label);
  const repeats = quick ? 3 : 9;

  const sortMs = medianMs(() => [...points].sort((a, b) => a.score - b.score), repeats);
  const isotonicMs = medianMs(() => fitCalibrationMap(points, 'isotonic'), repeats);
  const lossMs = medianMs(() => {
    let total = 0;
    for (let i = 0; i < N; i++) {
      const z = 2 * scores[i] - 1;
      total += Math.log1p(Math.exp(-Math.abs(z))) + Math.max(z, 0) - labels[i] * z;
    }
    return total;
  }, repeats);
  const plattMs = medianMs(() => fitCalibrationMap(points, 'platt'), repeats);
  const { iterations } = fitPlatt(scores, labels);
  const isotonic = fitCalibrationMap(points, 'isotonic');
  const platt = fitCalibrationMap(points, 'platt');
  const applyNs = (map) => {
    const ms = medianMs(() => {
      let sum = 0;
      for (let i = 0; i < N; i++) sum += applyCalibration(map, scores[i]);
      return sum;
    }, repeats);
    return (ms * 1e6) / N;
  };
  const summaryMs = (method) =>
    medianMs(() => calibrationSummary(points, { method, bins: 10, folds: 5, seed: 0 }), quick ? 1 : 3);
  const summaries = { isotonic: summaryMs('isotonic'), platt: summaryMs('platt') };
  const ratio = (a, b) => `${fmt(a / b, 1)}×`;
  return `## Calibration (${fmt(N)} scores, one core)

Fit time of \`fitCalibrationMap\` on ${fmt(N)} labelled scores (a seeded judge overconfident in a known way, \`bench/calibration.mjs\`), CPU milliseconds, median of ${repeats} runs. Baselines from the same run: sorting the points by score (isotonic is a sort and then one linear pass of pool-adjacent-violators), and one pass of the logistic loss over the points (Platt costs a few such passes per Newton step).

| method | fit (ms) | baseline | baseline (ms) | fit / baseline | knots or Newton steps | apply (ns / score) | \`calibrate\` summary, 5 folds + in-sample (ms) |
|---|---:|---|---:|---:|---:|---:|---:|
| isotonic | ${fmt(isotonicMs, 1)} | sort by score | ${fmt(sortMs, 1)} | ${ratio(isotonicMs, sortMs)} | ${fmt(isotonic.knots.x.length)} knots | ${fmt(applyNs(isotonic), 0)} | ${fmt(summaries.isotonic, 0)} |
| platt | ${fmt(plattMs, 1)} | one logistic-loss pass | ${fmt(lossMs, 1)} | ${ratio(plattMs, lossMs)} | ${iterations} steps | ${fmt(applyNs(platt), 0)} | ${fmt(summaries.platt, 0)} |

The summary fits the map ${5 + 1} times (once per fold, once on all points) and measures ECE, MCE and Brier three times (before, cross-fitted, in-sample).`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  process.stdout.write(`${await calibrationSection({ quick: process.argv.includes('--quick'), fmt })}\n`);
}
