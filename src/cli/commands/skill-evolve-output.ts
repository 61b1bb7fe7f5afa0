import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isWithin, RewardKitError } from '../../core/index.js';

/**
 * What `skill evolve` and `skill evolve-judge` share about their `--out`: the files written
 * there, how the evolved skill lands, and how an earlier run's JSONL is read back on resume.
 */
export const OUT_FILES = {
  skill: 'skill',
  patch: 'patch.json',
  changelog: 'CHANGELOG.md',
  report: 'report.json',
  analyses: 'analyses.jsonl',
};

/** The records of an earlier run's JSONL; unreadable lines (a run cut mid-write) are redone. */
export function readResumeLines<T>(
  path: string,
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
): T[] {
  if (!existsSync(path)) return [];
  const records: T[] = [];
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = schema.safeParse(JSON.parse(line));
      if (parsed.success) records.push(parsed.data as T);
    } catch {
      // A partial last line: that record is made again.
    }
  }
  return records;
}

/** The skill into `<out>/skill` through a fresh directory, replacing an earlier run's. */
export function writeEvolvedSkill(
  sourceDir: string | undefined,
  files: ReadonlyMap<string, string>,
  target: string,
  write: (source: string, files: ReadonlyMap<string, string>, out: string) => void,
): void {
  const staging = `${target}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  // create mode has no source directory: an empty one stands in, so every file is written new.
  const empty = sourceDir === undefined ? mkdtempSync(join(tmpdir(), 'rewardkit-skill-')) : undefined;
  try {
    write(sourceDir ?? (empty as string), files, staging);
  } finally {
    if (empty !== undefined) rmSync(empty, { recursive: true, force: true });
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(staging, target);
}

/**
 * Refuses output directories that overlap the source skill (the source is never written to) and a
 * non-empty `--out` that holds none of `resumeFiles` (an earlier run of this command, resumed).
 */
export function refuseEvolveOut(options: {
  readonly dirs: readonly { readonly path: string; readonly name: string }[];
  readonly skill?: { readonly path: string; readonly name: string };
  readonly out: { readonly path: string; readonly name: string };
  readonly resumeFiles: readonly string[];
  readonly command: string;
}): void {
  const { skill, out } = options;
  if (skill !== undefined) {
    for (const dir of options.dirs) {
      if (isWithin(dir.path, skill.path) || isWithin(skill.path, dir.path))
        throw new RewardKitError(
          'RK_USAGE',
          `${dir.name} overlaps the skill ${skill.name}; evolve into a new directory`,
        );
    }
  }
  if (
    existsSync(out.path) &&
    readdirSync(out.path).length > 0 &&
    !options.resumeFiles.some((file) => existsSync(join(out.path, file)))
  )
    throw new RewardKitError(
      'RK_USAGE',
      `${out.name} is not empty and holds no earlier ${options.command} output; pick a new directory`,
    );
}

/** A repeatable flag's values. */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}
