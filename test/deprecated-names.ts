import { readFileSync } from 'node:fs';

/** JSON lines with every call's latency left out: what two runs of one input must agree on. */
export function withoutLatency(text: string): unknown[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line, (key, value) => (key === 'latency_ms' ? undefined : value)));
}

/** `withoutLatency` of a file. */
export const fileWithoutLatency = (path: string): unknown[] => withoutLatency(readFileSync(path, 'utf8'));

/** The deprecation lines a run printed on stderr (a deprecated command's or flag's). */
export const deprecationLines = (stderr: string): string[] =>
  stderr.split('\n').filter((line) => /^rewardkit: warning: .* is deprecated; use /.test(line));

/** A JSON file (a report) with every call's latency left out. */
export const jsonWithoutLatency = (path: string): unknown =>
  JSON.parse(readFileSync(path, 'utf8'), (key, value) => (key === 'latency_ms' ? undefined : value));
