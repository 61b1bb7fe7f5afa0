// What the bench sections share: starting a server, number formatting, the items-per-second loop,
// a thread's CPU time.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** User and system CPU seconds in a /proc `stat` file (Linux; NaN elsewhere). */
function statCpuSeconds(path) {
  try {
    const fields = readFileSync(path, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** CPU seconds of one thread (`tid`, default the main thread) of process `pid` (Linux; NaN elsewhere). */
export const threadCpuSeconds = (pid, tid = pid) => statCpuSeconds(`/proc/${pid}/task/${tid}/stat`);

/** CPU seconds of process `pid`, all its threads (Linux; NaN elsewhere). */
export const processCpuSeconds = (pid) => statCpuSeconds(`/proc/${pid}/stat`);

/**
 * Starts `node <mainJs> <args>` (a rewardkit command that listens on --port 0 and prints its URL)
 * and resolves once the URL is printed: the URL, the pid, its stderr so far, and a stop that sends
 * SIGTERM and waits for the exit. Rejects with the command's stderr if it exits first.
 */
export async function startListening(mainJs, args, env = {}) {
  const child = spawn(process.execPath, [mainJs, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const match = /https?:\/\/[^\s]+/.exec(out);
      if (match) resolve(match[0].replace(/\/$/, ''));
    });
    child.once('exit', (code) => reject(new Error(`rewardkit ${args[0]} exited with ${code}: ${stderr}`)));
  });
  return {
    url,
    pid: child.pid,
    stderr: () => stderr,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

export const fmt = (n, d = 0) =>
  n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/**
 * Milliseconds of CPU time (user and system) this process has spent: on a machine shared with
 * other work, wall time counts their load too.
 */
export function cpuClock() {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Runs `fn` over `items` repeatedly for at least `ms` of `clock` (wall time unless told), returns items per second of it. */
export function throughput(items, fn, ms, clock = () => performance.now()) {
  for (const item of items.slice(0, 50)) fn(item); // warm up the JIT
  let done = 0;
  const start = clock();
  while (clock() - start < ms) {
    for (const item of items) fn(item);
    done += items.length;
  }
  return (done / (clock() - start)) * 1000;
}

/**
 * In BENCHMARKS.md, what follows this line to the end of its section is written by hand (figures
 * measured elsewhere, what changed and why); measuring the section again keeps it after the new figures.
 */
export const NOTES_MARK =
  '<!-- Notes below are written by hand; measuring this section again keeps them. -->';

/** A freshly measured section with the hand-written notes of its previous text, if it had any. */
export function withNotes(section, previous = '') {
  const at = previous.indexOf(NOTES_MARK);
  return at < 0 ? section : `${section.trimEnd()}\n\n${previous.slice(at).trimEnd()}`;
}

/** BENCHMARKS.md's text with the section whose heading starts `## heading` measured afresh (appended when missing). */
export function replaceSection(text, heading, section) {
  const at = text.indexOf(`## ${heading}`);
  if (at < 0) return `${text.trimEnd()}\n\n${section}\n`;
  const next = text.indexOf('\n## ', at + 1);
  const previous = next < 0 ? text.slice(at) : text.slice(at, next);
  return `${text.slice(0, at)}${withNotes(section, previous)}\n${next < 0 ? '' : text.slice(next)}`;
}
