// The lab's section of BENCHMARKS.md: training throughput against the 512² matmul peak of the
// same run (tfjs WASM backend), and the wall time and verdicts of each experiment's default.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dist = (path) => new URL(`../dist/lab/${path}`, import.meta.url).href;

/** FLOPs of one training step (forward + backward ≈ 3× forward) of the lab transformer. */
function stepFlops({ width: d, depth, seqLen: t, vocab: v, mlpRatio }, batch) {
  const tokens = batch * t;
  const matmul = (4 + 2 * mlpRatio) * d * d * depth + 2 * d * v; // qkv, out, MLP; embed + head
  const attention = 2 * t * d * depth; // QKᵀ and AV per token
  return 3 * 2 * tokens * (matmul + attention);
}

export async function labSection({ quick, fmt, root }) {
  const { loadTf } = await import(dist('tf-runtime.js'));
  const tf = await loadTf();
  const { initParams } = await import(dist('transformer.js'));
  const { createTrainState, adamwStep, disposeTrainState } = await import(dist('adamw.js'));
  const { lmLoss } = await import(dist('lm-loss.js'));

  const timeIt = (fn, runs) => {
    fn();
    const start = performance.now();
    for (let i = 0; i < runs; i++) fn();
    return (performance.now() - start) / runs / 1000;
  };
  const a = tf.randomNormal([512, 512]);
  const b = tf.randomNormal([512, 512]);
  // Not `tf.tidy(() => c.dataSync())`: tidy walks a returned typed array element by element.
  const product = () => {
    const c = tf.matMul(a, b);
    c.dataSync();
    c.dispose();
  };
  const peak = (2 * 512 ** 3) / timeIt(product, quick ? 10 : 60) / 1e9;
  tf.dispose([a, b]);

  const sizes = [
    {
      name: 'small (the siamesenorm default)',
      config: { vocab: 64, width: 64, heads: 4, depth: 4, seqLen: 64, mlpRatio: 4 },
      batch: 8,
    },
    {
      name: 'larger',
      config: { vocab: 64, width: 256, heads: 4, depth: 4, seqLen: 64, mlpRatio: 4 },
      batch: 32,
    },
  ];
  const rows = sizes.map(({ name, config, batch }) => {
    const model = { ...config, norm: 'pre', causal: true, tiedHead: true };
    const state = createTrainState(initParams(model, 1));
    const x = tf.randomUniformInt([batch, config.seqLen], 0, config.vocab);
    const y = tf.randomUniformInt([batch, config.seqLen], 0, config.vocab);
    const opts = { lr: 1e-3, beta1: 0.9, beta2: 0.95, weightDecay: 0.1, clip: 1 };
    const seconds = timeIt(() => adamwStep(state, (p) => lmLoss(p, model, x, y), opts), quick ? 2 : 8);
    disposeTrainState(state);
    tf.dispose([x, y]);
    const gflops = stepFlops(config, batch) / seconds / 1e9;
    return `| ${name}: d ${config.width}, depth ${config.depth}, seq ${config.seqLen}, batch ${batch} | ${fmt(seconds * 1000, 1)} | ${fmt((batch * config.seqLen) / seconds)} | ${fmt(gflops, 1)} | ${fmt((100 * gflops) / peak, 0)}% |`;
  });

  const experiments = quick ? [] : ['siamesenorm', 'mdm', 'gap', 'dir', 'rlvr'];
  const runs = await documentedRuns(experiments, root);

  return `## Lab (tfjs WASM backend, single-threaded SIMD in Node)

512² matmul peak in this run: **${fmt(peak, 1)} GFLOP/s**. A training step is forward, backward
and AdamW; its FLOPs are counted as 3× the forward matmuls (projections, MLP, attention, embedding and head).

| model | ms / step | tokens/s | GFLOP/s | of peak |
|---|---:|---:|---:|---:|
${rows.join('\n')}

${
  runs.length === 0
    ? ''
    : `The documented runs: each experiment's default configuration with ${DOCUMENTED_SEEDS.length} seeds (\`rewardkit lab <name> --seeds ${DOCUMENTED_SEEDS.join(',')}\`), two experiments at a time on this machine's 2 cores (tfjs runs on one core each):

| experiment | wall time |
|---|---:|
${runs.map((r) => `| \`lab ${r.name}\` | ${fmt(r.seconds)} s |`).join('\n')}

Their verdicts (mean effect with its paired-t 95% interval over the seeds):

${runs.map((r) => `- \`lab ${r.name}\`:\n${r.verdicts.map((v) => `  - ${v}`).join('\n')}`).join('\n')}
`
}`;
}

/** The evidence standard's documented runs use 5 seeds (docs/lab.md); the defaults use 3. */
const DOCUMENTED_SEEDS = [0, 1, 2, 3, 4];

/** Runs the experiments two at a time (one per core), each in its own process and output folder. */
async function documentedRuns(experiments, root) {
  const queue = [...experiments];
  const runs = new Map();
  const worker = async () => {
    for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
      const out = mkdtempSync(join(tmpdir(), `rewardkit-bench-lab-${name}-`));
      const args = ['lab', name, '--no-progress', '--seeds', DOCUMENTED_SEEDS.join(','), '-o', out];
      const start = performance.now();
      const { status, stdout, stderr } = await run(process.execPath, [
        join(root, 'dist/cli/main.js'),
        ...args,
      ]);
      if (status !== 0) throw new Error(`rewardkit lab ${name} failed: ${stderr}`);
      runs.set(name, {
        name,
        seconds: (performance.now() - start) / 1000,
        verdicts: stdout.trim().split('\n'),
      });
    }
  };
  await Promise.all([worker(), worker()]);
  return experiments.map((name) => runs.get(name));
}

function run(command, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
