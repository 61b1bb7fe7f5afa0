// Install size and time: the packed tarball installed into empty projects by npm's defaults, alone
// and with each optional part, next to the install with every part (what every user paid before
// issue 28) measured in the same run. `bench/run.mjs --only install` adds this section to
// BENCHMARKS.md; `node bench/install.mjs` prints it alone (build first). Needs the npm registry or
// a warm npm cache; the per-part rows download the parts (node-llama-cpp alone is ~730 MB).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskUsage, installInto, MB, OPTIONAL_PARTS, packTarball } from './install-measure.mjs';

const LABELS = {
  lab: 'the lab (`@tensorflow/tfjs`, `-backend-wasm`, `vega`, `vega-lite`)',
  gguf: 'the GGUF backend (`node-llama-cpp`)',
  typescript: 'TypeScript in `/run_code` (`typescript`)',
  postgres: 'the PostgreSQL store (`pg`)',
};

export async function installSection({ root, fmt }) {
  const dir = mkdtempSync(join(tmpdir(), 'rewardkit-install-bench-'));
  try {
    const tarball = packTarball(root, dir);
    const cases = [
      { label: '`npm install rewardkit` (default)', specs: [] },
      ...Object.entries(OPTIONAL_PARTS).map(([part, specs]) => ({ label: `+ ${LABELS[part]}`, specs })),
      {
        label: 'every optional part (the install before issue 28)',
        specs: Object.values(OPTIONAL_PARTS).flat(),
      },
    ];
    const measured = cases.map((c, i) => {
      const project = join(dir, `p${i}`);
      const ms = installInto(project, [tarball.path, ...c.specs]);
      const bytes = diskUsage(join(project, 'node_modules'));
      rmSync(project, { recursive: true, force: true });
      return { ...c, ms, bytes };
    });
    const all = measured.at(-1);
    return `## Install (\`npm install\` of the packed tarball into an empty project, npm defaults, warm npm cache)

Tarball: ${fmt(tarball.size / MB, 2)} MB packed, ${fmt(tarball.unpackedSize / MB, 2)} MB unpacked, ${fmt(tarball.files.length)} files (no source maps, tests or fixtures). Sizes are the disk usage of \`node_modules\` in decimal MB (10^6 bytes); times include better-sqlite3's native build where npm builds it from source.

| install | node_modules | vs every part | time |
|---|---:|---:|---:|
${measured.map((m) => `| ${m.label} | ${fmt(m.bytes / MB, 1)} MB | ${fmt(m.bytes / all.bytes, 2)}× | ${fmt(m.ms / 1000, 0)} s |`).join('\n')}

The default install is what \`.ci/check-install.mjs\` holds to 120 MB. Each optional part is one \`npm install\` line (docs/install.md); using a part without it answers \`RK_BACKEND_UNAVAILABLE\` with that line.`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { fileURLToPath } = await import('node:url');
  const fmt = (n, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });
  const root = fileURLToPath(new URL('..', import.meta.url));
  process.stdout.write(`${await installSection({ root, fmt })}\n`);
}
