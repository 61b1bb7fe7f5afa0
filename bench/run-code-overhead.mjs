// What /run_code adds over running the same trivial program directly, per language, with and
// without the sandbox pool (`createCodeSandbox({ sandboxPool })`, `serve --sandbox-pool`): in
// process and through a real `rewardkit serve` over HTTP, interleaved with the direct runs in every
// round (medians and p90). Then requests/s of a trivial Python program at concurrency 1, 8 and 32.
// `bench/run.mjs` adds this section to BENCHMARKS.md; `node bench/run-code-overhead.mjs [--quick]`
// prints it alone (build first; `--languages python,cpp --rounds 31` for a longer look at a few);
// `--smoke` is the seconds-long run the tests make.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmt as defaultFmt, startListening } from './measure.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

// A trivial program per language: prints 1. Languages of LANGUAGE_RECIPES missing here (test
// runners such as pytest, junit or D_ut, whose -unittest build runs the tests, not main) are
// named as not measured.
const TRIVIAL = {
  python: 'print(1)\n',
  bash: 'echo 1\n',
  nodejs: 'console.log(1);\n',
  typescript: 'console.log(1);\n',
  c: '#include <stdio.h>\nint main(void){puts("1");return 0;}\n',
  cpp: '#include <iostream>\nint main(){std::cout<<1<<"\\n";}\n',
  go: 'package main\nimport "fmt"\nfunc main() { fmt.Println(1) }\n',
  rust: 'fn main() { println!("1"); }\n',
  java: 'public class Main { public static void main(String[] a) { System.out.println(1); } }\n',
  lua: 'print(1)\n',
  perl: 'print "1\\n";\n',
  php: 'echo "1\\n";\n',
  ruby: 'puts 1\n',
  R: 'cat(1, "\\n", sep = "")\n',
  racket: '#lang racket\n(displayln 1)\n',
  csharp: 'public class P { public static void Main() { System.Console.WriteLine(1); } }\n',
  scala: 'object Main { def main(args: Array[String]): Unit = println(1) }\n',
  kotlin_script: 'println(1)\n',
};

const POOLED = 2;

/** Milliseconds a child process takes from spawn to exit; rejects when it fails. */
function timed(argv, cwd, env) {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(performance.now() - start);
      else reject(new Error(`${argv.join(' ')} exited with ${code}: ${stderr.slice(-300)}`));
    });
  });
}

/**
 * The recipe's own compile and run commands on the host, in a fresh directory (as each sandbox
 * starts empty), with the recipe's environment pointed into that directory: the baseline.
 */
async function direct(recipe, code) {
  const dir = mkdtempSync(join(tmpdir(), 'rk-run-code-direct-'));
  try {
    // The same commands as the sandbox's: what the recipe probes first (C++'s link flags) included.
    await recipe.setUp?.();
    const program = { code, fileNames: [], memoryMb: 256 };
    const files = { ...(recipe.extraFiles?.(program) ?? {}) };
    const source = typeof recipe.source === 'string' ? recipe.source : recipe.source(program);
    files[source] = recipe.rewrite ? recipe.rewrite(code) : code;
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const env = { PATH: '/usr/bin:/bin', HOME: dir, LANG: 'C.UTF-8' };
    for (const [name, value] of Object.entries(recipe.env ?? {})) env[name] = value.replace(/^\/tmp\b/, dir);
    const start = performance.now();
    if (recipe.compile) await timed(recipe.compile(program), dir, env);
    await timed(recipe.run(program), dir, env);
    return performance.now() - start;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
};

/** Requests/s of `one` at `concurrency`, `total` requests. */
async function rate(one, concurrency, total) {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next++;
        await one();
      }
    }),
  );
  return total / ((performance.now() - start) / 1000);
}

export async function runCodeOverheadSection({
  quick = false,
  smoke = false,
  fmt = defaultFmt,
  only = undefined,
  rounds: roundsAsked = undefined,
} = {}) {
  const { createCodeSandbox, bubblewrapWorks, LANGUAGE_RECIPES } = await import(
    '../dist/verify/code/index.js'
  );
  const title = '## `/run_code` overhead over the bare program, with and without the sandbox pool';
  if (!bubblewrapWorks()) return `${title}\n\nNot measured: bubblewrap is not available on this machine.`;
  const load = () =>
    loadavg()
      .map((l) => fmt(l, 2))
      .join(', ');
  const loadBefore = load();
  const cold = createCodeSandbox({ sandboxPool: 0 });
  const pooled = createCodeSandbox({ sandboxPool: POOLED });
  const main = join(root, 'dist/cli/main.js');
  const serveCold = await startListening(main, ['serve', '--port', '0', '--sandbox-pool', '0']);
  const servePooled = await startListening(main, ['serve', '--port', '0', '--sandbox-pool', String(POOLED)]);
  const overHttp = (url) => async (body) => {
    const res = await fetch(`${url}/run_code`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return res.json();
  };
  const modes = {
    'in process, no pool': (body) => cold.runCode(body),
    [`in process, pool of ${POOLED}`]: (body) => pooled.runCode(body),
    'HTTP `serve --sandbox-pool 0`': overHttp(serveCold.url),
    [`HTTP \`serve --sandbox-pool ${POOLED}\``]: overHttp(servePooled.url),
  };
  try {
    const languages = [];
    const skipped = [];
    const wanted = only ?? (smoke ? ['python', 'bash'] : Object.keys(LANGUAGE_RECIPES));
    for (const language of wanted) {
      const code = TRIVIAL[language];
      if (code === undefined) {
        skipped.push(`${language} (no trivial program in this bench)`);
        continue;
      }
      const probe = await cold.runCode({ code, language, compile_timeout: 60, run_timeout: 20 });
      if (probe.status === 'Success' && probe.run_result?.stdout.trim() === '1') languages.push(language);
      else skipped.push(`${language} (${(probe.message || probe.status).split('\n')[0].slice(0, 120)})`);
    }
    const rounds = roundsAsked ?? (smoke ? 2 : quick ? 5 : 9);
    const times = new Map(
      languages.map((l) => [
        l,
        { direct: [], ...Object.fromEntries(Object.keys(modes).map((m) => [m, []])) },
      ]),
    );
    // One unmeasured round, then rounds in which each language runs directly and in every mode in
    // turn, so a busy moment of the shared machine weighs on all alike.
    for (let round = -1; round < rounds; round++) {
      for (const language of languages) {
        const recipe = LANGUAGE_RECIPES[language];
        const code = TRIVIAL[language];
        const row = times.get(language);
        for (const [mode, run] of [
          ['direct', () => direct(recipe, code)],
          ...Object.entries(modes).map(([m, f]) => [
            m,
            async () => {
              const start = performance.now();
              const answer = await f({ code, language, compile_timeout: 60, run_timeout: 20 });
              if (answer.status !== 'Success')
                throw new Error(`${language} (${m}): ${JSON.stringify(answer).slice(0, 500)}`);
              return performance.now() - start;
            },
          ]),
        ]) {
          const ms = await run();
          if (round >= 0) row[mode].push(ms);
        }
      }
    }
    const cell = (values) => `${fmt(quantile(values, 0.5), 1)} / ${fmt(quantile(values, 0.9), 1)}`;
    const above = (values, base) => {
      const d = quantile(values, 0.5) - quantile(base, 0.5);
      const pct = (100 * Math.abs(d)) / quantile(base, 0.5);
      return `${d >= 0 ? '+' : '−'}${fmt(Math.abs(d), 1)} ms (${d >= 0 ? '+' : '−'}${fmt(pct, 0)}%)`;
    };
    const names = Object.keys(modes);
    const latencyRows = languages.map((language) => {
      const row = times.get(language);
      return `| ${language} | ${cell(row.direct)} | ${names.map((m) => cell(row[m])).join(' | ')} | ${above(row[names[0]], row.direct)} | ${above(row[names[1]], row.direct)} | ${above(row[names[3]], row.direct)} |`;
    });

    // Throughput: a trivial Python program through the server at concurrency 1, 8, 32; the
    // baseline spawns the bare interpreter at the same concurrency.
    const body = { code: 'print(1)', language: 'python' };
    const throughputRows = [];
    for (const concurrency of smoke ? [1, 2] : [1, 8, 32]) {
      const total = smoke ? 4 : Math.max(quick ? 16 : 48, concurrency * (quick ? 2 : 4));
      const bare = await rate(
        () => timed(['/usr/bin/python3', '-c', 'print(1)'], tmpdir(), {}),
        concurrency,
        total,
      );
      const viaCold = await rate(() => modes[names[2]](body), concurrency, total);
      const viaPooled = await rate(() => modes[names[3]](body), concurrency, total);
      throughputRows.push(
        `| ${concurrency} | ${total} | ${fmt(bare, 1)} | ${fmt(viaCold, 1)} (${fmt(viaCold / bare, 2)}×) | ${fmt(viaPooled, 1)} (${fmt(viaPooled / bare, 2)}×) |`,
      );
    }
    const others = skipped.length > 0 ? `Not measured: ${skipped.join('; ')}.` : '';
    return `${title}

A trivial program (prints 1) per language, median / p90 in ms over ${rounds} interleaved rounds on
${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}. Direct (the baseline) runs the language's own compile and run
commands (the same binaries and flags as its recipe) on the host, in a fresh directory, spawned from
Node; for Python that is the bare interpreter. In process calls \`sandbox.runCode\`; HTTP posts to a
running \`rewardkit serve\` (default queue of 8) over loopback. The pool keeps ${POOLED} sandboxes started
(bubblewrap and the supervisor's interpreter), each used for one job only.

| language | direct (baseline) | ${names.join(' | ')} | no pool, above direct | pool, above direct | HTTP with pool, above direct |
|---|---:|${names.map(() => '---:').join('|')}|---:|---:|---:|
${latencyRows.join('\n')}

Requests/s of \`print(1)\` in Python through \`rewardkit serve\` (its default \`--concurrency 8\`
runs at most 8 sandboxes at once), next to spawning \`python3 -c 'print(1)'\` directly at the same
concurrency (the baseline):

| clients | requests | direct, /s | \`--sandbox-pool 0\`, /s | \`--sandbox-pool ${POOLED}\`, /s |
|---:|---:|---:|---:|---:|
${throughputRows.join('\n')}

The machine is shared: its load average (1, 5, 15 min) was ${loadBefore} before and ${load()} after,
on ${cpus().length} cores, so absolute figures are inflated; compare within a row. ${others}`;
  } finally {
    await Promise.all([cold.close(), pooled.close(), serveCold.stop(), servePooled.stop()]);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `--languages python,cpp --rounds 31`: a longer look at a few languages.
  const value = (flag) => {
    const at = process.argv.indexOf(flag);
    return at === -1 ? undefined : process.argv[at + 1];
  };
  process.stdout.write(
    `${await runCodeOverheadSection({
      quick: process.argv.includes('--quick'),
      smoke: process.argv.includes('--smoke'),
      only: value('--languages')?.split(','),
      rounds: value('--rounds') === undefined ? undefined : Number(value('--rounds')),
    })}\n`,
  );
}
