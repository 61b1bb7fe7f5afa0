import type { Command } from 'commander';

/** A comma-separated list, kept as strings: the experiment's zod schema checks and names each item. */
export const list = (value: string): string[] => value.split(',').map((s) => s.trim());

/**
 * The experiment's options: each flag given on the command line over the defaults. Numbers are
 * converted here and checked by the experiment's schema, so `--lrs 1e-3,x` fails naming `--lrs[1]`.
 */
export function labOptions<T extends Record<string, unknown>>(
  command: Command,
  defaults: T,
): Record<string, unknown> {
  const given = command.opts() as Record<string, unknown>;
  const out: Record<string, unknown> = { ...defaults };
  for (const key of Object.keys(defaults)) {
    const value = given[key];
    if (value === undefined) continue;
    const numeric = (s: string) => (s.trim() === '' ? Number.NaN : Number(s));
    const sample = defaults[key];
    if (Array.isArray(sample))
      out[key] = (value as string[]).map((s) => (typeof sample[0] === 'number' ? numeric(s) : s));
    else out[key] = typeof sample === 'number' ? numeric(value as string) : value;
  }
  return out;
}

/** Adds `--<flag> <value>` for every option of an experiment, with its default in the help. */
export function addLabOptions(
  command: Command,
  defaults: Record<string, unknown>,
  help: Record<string, string>,
): Command {
  for (const [key, value] of Object.entries(defaults)) {
    const flag = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
    const shown = Array.isArray(value) ? value.join(',') : String(value);
    if (Array.isArray(value))
      command.option(`--${flag} <list>`, `${help[key] ?? key} (default: ${shown})`, list);
    else command.option(`--${flag} <value>`, `${help[key] ?? key} (default: ${shown})`);
  }
  return command;
}
