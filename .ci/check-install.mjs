// CI's install check (issue 28): what `npm install rewardkit` gives a user. Packs the tarball,
// installs it into an empty project from npm's cache, and checks that
//   - node_modules stays within the size limit and holds none of the optional heavy packages;
//   - the installed `rewardkit score` scores a two-row file into the default SQLite store;
//   - with better-sqlite3 gone (its native build failed on a machine without a compiler), the
//     verifiers still import and run, `score --store none` still works, and the SQLite store
//     answers with one RK_BACKEND_UNAVAILABLE line instead of a stack;
//   - without a C/C++ compiler the install still succeeds.
// Run after `npm ci` (which builds dist/): `node .ci/check-install.mjs`.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  diskUsage,
  findPackages,
  HEAVY_PACKAGES,
  installInto,
  MB,
  packTarball,
} from '../bench/install-measure.mjs';

const LIMIT_MB = 120;
const root = fileURLToPath(new URL('..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'rewardkit-install-check-'));
const project = join(dir, 'project');
const failures = [];
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures.push(what);
};

try {
  const tarball = packTarball(root, dir);
  check(
    !tarball.files.some((f) => /\.map$|\.test\.|__fixtures__|test-utils\//.test(f.path)),
    `tarball: ${(tarball.size / MB).toFixed(2)} MB packed, ${(tarball.unpackedSize / MB).toFixed(2)} MB unpacked, ${tarball.files.length} files, no source maps, tests or fixtures`,
  );

  const ms = installInto(project, [tarball.path]);
  const nodeModules = join(project, 'node_modules');
  const mb = diskUsage(nodeModules) / MB;
  check(
    mb <= LIMIT_MB,
    `default install: ${mb.toFixed(1)} MB of node_modules (limit ${LIMIT_MB} MB) in ${(ms / 1000).toFixed(0)} s`,
  );
  const heavy = findPackages(nodeModules, HEAVY_PACKAGES);
  check(
    heavy.length === 0,
    `no optional heavy package installed${heavy.length ? `: found ${heavy.join(', ')}` : ''}`,
  );

  const rows = join(project, 'rows.jsonl');
  writeFileSync(
    rows,
    `${JSON.stringify({ id: 'a', data_source: 'openai/gsm8k', response: 'She has 6 + 6 = 12.\n#### 12', reference: '12' })}\n${JSON.stringify({ id: 'b', data_source: 'openai/gsm8k', response: 'The answer is 13.', reference: '12' })}\n`,
  );
  const rewardkit = (args) =>
    spawnSync(join(nodeModules, '.bin', 'rewardkit'), args, { cwd: project, encoding: 'utf8' });
  const scored = rewardkit(['score', '--input', rows, '--output', join(project, 'out.jsonl')]);
  const out =
    scored.status === 0
      ? readFileSync(join(project, 'out.jsonl'), 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l))
      : [];
  check(
    scored.status === 0 && out.length === 2 && out[0].reward === 1 && out[1].reward === 0,
    `installed "rewardkit score" on two rows into .rewardkit/store.sqlite${scored.status === 0 ? '' : `: exit ${scored.status}\n${scored.stderr}`}`,
  );

  // A machine where better-sqlite3 did not build: npm drops the optional dependency.
  const aside = join(dir, 'better-sqlite3');
  renameSync(join(nodeModules, 'better-sqlite3'), aside);
  try {
    const verifiers = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { verifyMath } from 'rewardkit';
         const ok = verifyMath('So $x = \\\\frac{1}{2}$.', '0.5').correct && !verifyMath('x = 3', '0.5').correct;
         if (!ok) { console.error('verifyMath gave a wrong verdict'); process.exit(1); }`,
      ],
      { cwd: project, encoding: 'utf8' },
    );
    check(
      verifiers.status === 0,
      `without better-sqlite3: import { verifyMath } from 'rewardkit' works${verifiers.status === 0 ? '' : `\n${verifiers.stderr}`}`,
    );

    const noStore = rewardkit([
      'score',
      '--input',
      rows,
      '--output',
      join(project, 'none.jsonl'),
      '--store',
      'none',
      '--no-resume',
    ]);
    check(
      noStore.status === 0,
      `without better-sqlite3: "rewardkit score --store none" works${noStore.status === 0 ? '' : `\n${noStore.stderr}`}`,
    );

    const sqlite = rewardkit([
      'score',
      '--input',
      rows,
      '--output',
      join(project, 'sqlite.jsonl'),
      '--store',
      join(project, 'x.sqlite'),
    ]);
    check(
      sqlite.status !== 0 && /better-sqlite3/.test(sqlite.stderr) && !/^\s+at /m.test(sqlite.stderr),
      `without better-sqlite3: the SQLite store fails with one message, no stack (exit ${sqlite.status}: ${sqlite.stderr.trim().split('\n')[0]})`,
    );
  } finally {
    renameSync(aside, join(nodeModules, 'better-sqlite3'));
  }

  // A machine without a C/C++ compiler: the install itself must succeed. Where better-sqlite3's
  // prebuilt binary cannot be downloaded either (as here), npm leaves it out.
  const bare = join(dir, 'no-compiler');
  let installed = true;
  try {
    installInto(bare, [tarball.path], { CC: 'false', CXX: 'false' });
  } catch (error) {
    installed = false;
    console.error(String(error));
  }
  const sqlite = installed && existsSync(join(bare, 'node_modules', 'better-sqlite3'));
  check(
    installed,
    `without a compiler (CC=false CXX=false): the install succeeds${installed ? (sqlite ? ', with the prebuilt better-sqlite3' : ', without better-sqlite3') : ''}`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}

if (failures.length > 0) {
  console.error(`install check: ${failures.length} failed`);
  process.exit(1);
}
console.log('install check: passed');
