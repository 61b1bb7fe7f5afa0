import { readFileSync } from 'node:fs';

/** What differs between two runs of one input: how long calls took and when they were answered. */
const TIMING_KEYS = new Set(['latency_ms', 'answered_at', 'first_call_at', 'last_call_at']);
const dropTiming = (key: string, value: unknown) => (TIMING_KEYS.has(key) ? undefined : value);

/** JSON lines with every call's latency and time left out: what two runs of one input must agree on. */
export function withoutLatency(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line, dropTiming));
}

/** `withoutLatency` of a file. */
export const fileWithoutLatency = (path: string): unknown[] => withoutLatency(readFileSync(path, 'utf8'));

/** The deprecation lines a run printed on stderr (a deprecated command's or flag's). */
export const deprecationLines = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => /^rewardkit: warning: .* is deprecated; use /.test(line));

/** A JSON file (a report) with every call's latency and time left out. */
export const jsonWithoutLatency = (path: string): unknown =>
  JSON.parse(readFileSync(path, 'utf8'), dropTiming);
