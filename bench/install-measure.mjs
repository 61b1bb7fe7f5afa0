// Packing rewardkit and installing the tarball into an empty project, as a user's `npm install
// rewardkit` does: shared by the CI install check (.ci/check-install.mjs) and the install benchmark
// (bench/install.mjs).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The packages the default install must not bring: each belongs to one optional part. */
export const OPTIONAL_PARTS = {
  lab: [
    '@tensorflow/tfjs@^4.22.0',
    '@tensorflow/tfjs-backend-wasm@^4.22.0',
    'vega@^6.4.0',
    'vega-lite@^6.4.3',
  ],
  gguf: ['node-llama-cpp@^3.21.1'],
  typescript: ['typescript@^5.0.0'],
  postgres: ['pg@^8.23.1'],
};

/** Folder names under node_modules, at any depth, that mean a heavy part was installed anyway. */
export const HEAVY_PACKAGES = [
  'node-llama-cpp',
  '@node-llama-cpp',
  '@tensorflow',
  'vega',
  'vega-lite',
  'typescript',
  'pg',
];

/**
 * `npm pack` of the repository at `root` into `dir`; returns the tarball's path and npm's report
 * (size, unpacked size, files). `--ignore-scripts`: the caller has built dist/ already (CI's `npm
 * ci` ran `prepare`), and the tarball must hold what was tested.
 */
export function packTarball(root, dir) {
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const [report] = JSON.parse(out);
  return {
    path: join(dir, report.filename),
    size: report.size,
    unpackedSize: report.unpackedSize,
    files: report.files,
  };
}

/**
 * A new empty project in `dir` with `specs` installed by npm's defaults (optional dependencies
 * and install scripts included) from npm's cache where it can, with `env` added to the
 * environment. Returns the wall time in ms.
 */
export function installInto(dir, specs, env = {}) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'install-check', version: '1.0.0', private: true, type: 'module' })}\n`,
  );
  const start = performance.now();
  const result = spawnSync('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs], {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, ...env },
  });
  const ms = performance.now() - start;
  if (result.status !== 0)
    throw new Error(`npm install ${specs.join(' ')} failed (${result.status}):\n${result.stderr}`);
  return ms;
}

/** Disk usage of a folder in bytes, as `du` counts it (allocated blocks, each hard link once). */
export function diskUsage(path) {
  const seen = new Set();
  const walk = (p) => {
    const stat = lstatSync(p);
    const key = `${stat.dev}:${stat.ino}`;
    if (seen.has(key)) return 0;
    seen.add(key);
    let bytes = stat.blocks * 512;
    if (stat.isDirectory()) for (const name of readdirSync(p)) bytes += walk(join(p, name));
    return bytes;
  };
  return existsSync(path) ? walk(path) : 0;
}

/** Every folder under `nodeModules` (at any depth) whose package name is one of `names`. */
export function findPackages(nodeModules, names) {
  const found = [];
  const visit = (dir) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(dir, entry.name);
      if (entry.name.startsWith('@')) {
        if (names.includes(entry.name)) found.push(path);
        for (const scoped of readdirSync(path, { withFileTypes: true })) {
          const scopedPath = join(path, scoped.name);
          if (names.includes(`${entry.name}/${scoped.name}`)) found.push(scopedPath);
          visit(join(scopedPath, 'node_modules'));
        }
        continue;
      }
      if (names.includes(entry.name)) found.push(path);
      visit(join(path, 'node_modules'));
    }
  };
  visit(nodeModules);
  return found;
}

/** Sizes are reported in decimal megabytes (10^6 bytes), the stricter reading of "120 MB". */
export const MB = 1_000_000;
