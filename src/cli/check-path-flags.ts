import { accessSync, closeSync, constants, openSync, type Stats, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Argument, Command, Option } from 'commander';
import { RewardKitError } from '../core/index.js';

/** What a path-valued flag or argument does with its path, read off the program definition. */
export interface PathRole {
  use: 'read' | 'write' | 'store';
  /** From the value placeholder: `<file>`, `<dir>`, or `<path>` (a file or a dataset folder). */
  kind: 'file' | 'dir' | 'any';
  /** The value may also be something other than a path (`<file|preset>`, `<json|file>`). */
  orName: boolean;
}

/** Flags whose path is written; every other path-valued flag is read. */
const WRITTEN = new Set(['output', 'out', 'report', 'bench-report', 'summary', 'csv', 'markdown', 'work']);

/**
 * The role of an option or argument whose value placeholder names a path (`<file>`, `<dir>`,
 * `<path>`, `<file|preset>`, `<rubrics.jsonl>`, …), or undefined. `--protect <path>` names a path
 * inside the skill being edited, not one on disk, so it is not checked here.
 */
export function pathRoleOf(name: string, placeholder: string): PathRole | undefined {
  if (name === 'protect') return undefined;
  const words = placeholder.split('|');
  const isFile = words.some((w) => w === 'file' || /\.[a-z]+$/i.test(w));
  const isDir = words.includes('dir');
  const isPath = words.includes('path');
  if (!isFile && !isDir && !isPath) return undefined;
  const orName = words.some((w) => w === 'preset' || w === 'json');
  if (name === 'store') return { use: 'store', kind: 'file', orName };
  const use = WRITTEN.has(name) ? 'write' : 'read';
  return { use, kind: isDir ? 'dir' : isFile ? 'file' : 'any', orName };
}

const placeholderOf = (flags: string): string => /[<[]([^>\]]+)[>\]]/.exec(flags)?.[1] ?? '';

/** The path-valued options of a command, with their roles. */
export function pathOptions(command: Command): Array<{ option: Option; role: PathRole }> {
  return command.options.flatMap((option) => {
    const role = pathRoleOf((option.long ?? '').replace(/^--/, ''), placeholderOf(option.flags));
    return role ? [{ option, role }] : [];
  });
}

/** The path-valued arguments of a command, with their positions and roles. */
export function pathArguments(
  command: Command,
): Array<{ argument: Argument; index: number; role: PathRole }> {
  return command.registeredArguments.flatMap((argument, index) => {
    const role = pathRoleOf(argument.name(), argument.name());
    return role ? [{ argument, index, role }] : [];
  });
}

/**
 * Checks every path the command line gives before the command runs, so that a folder where a file
 * belongs, a missing file or folder, or a file that cannot be written is one usage error (exit 2)
 * naming the flag and the path, never a stack trace half-way through a run.
 */
export function checkPathFlags(command: Command): void {
  const opts = command.opts();
  for (const { option, role } of pathOptions(command)) {
    const key = option.attributeName();
    if (command.getOptionValueSource(key) === 'default') continue;
    const value: unknown = opts[key];
    for (const path of Array.isArray(value) ? value : [value]) {
      if (typeof path === 'string') checkPath(option.long ?? option.flags, path, role, option.description);
    }
  }
  for (const { argument, index, role } of pathArguments(command)) {
    const value: unknown = command.processedArgs[index];
    for (const path of Array.isArray(value) ? value : [value]) {
      if (typeof path === 'string') checkPath(`<${argument.name()}>`, path, role, argument.description);
    }
  }
}

/** Values that are not paths although the flag takes one: stdio, stores that are no file, inline JSON, presets. */
function notAPath(path: string, role: PathRole): boolean {
  if (path === '-' || path === '') return true;
  if (role.use === 'store')
    return path === 'none' || path === ':memory:' || /^postgres(ql)?:\/\//i.test(path);
  if (!role.orName) return false;
  // `--spec`/`spec validate` take a preset name and `--options` inline JSON; loadSpec tells a name from a path the same way.
  return /^\s*[{[]/.test(path) || !/[\\/]|\.[a-z0-9]+$/i.test(path);
}

function checkPath(flag: string, path: string, role: PathRole, description: string): void {
  const stats = statOf(path);
  if (notAPath(path, role) && stats === undefined) return;
  // What the flag wants, from its help text, so the message says how to fix it ("expected the index directory (rewardkit index build)").
  const expected = role.use === 'read' && description !== '' ? `; expected ${description}` : '';
  const fail = (problem: string): never => {
    throw new RewardKitError('RK_USAGE', `${flag} ${path}: ${problem}${expected}`);
  };
  if (role.use === 'read') {
    if (!stats) fail(`not found${missingFolderNote(path)}`);
    else if (role.kind === 'dir' && !stats.isDirectory()) fail('is not a folder');
    else if (role.kind === 'file' && stats.isDirectory()) fail('is a folder; give a file');
    else if (stats.isFile()) readable(path, fail);
    return;
  }
  if (role.kind === 'dir') {
    if (stats && !stats.isDirectory()) fail('is a file; give a folder');
    if (!stats) creatableUnder(path, fail);
    return;
  }
  if (stats?.isDirectory()) fail('is a folder; give a file path');
  if (stats) writable(path, fail);
  // A store's folder is created for it; an output's folder must exist.
  else if (role.use === 'store') creatableUnder(path, fail);
  else {
    const folder = statOf(dirname(resolve(path)));
    if (!folder) fail(`the folder ${dirname(path)} does not exist; create it first`);
    else if (!folder.isDirectory()) fail(`${dirname(path)} is not a folder`);
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** " (the folder x does not exist)" when the missing file's folder is missing too. */
function missingFolderNote(path: string): string {
  const folder = dirname(path);
  return statOf(folder) ? '' : ` (the folder ${folder} does not exist)`;
}

/** The nearest existing ancestor of a path to be created must be a folder we may write in. */
function creatableUnder(path: string, fail: (problem: string) => never): void {
  let ancestor = dirname(resolve(path));
  while (!statOf(ancestor) && dirname(ancestor) !== ancestor) ancestor = dirname(ancestor);
  if (!statOf(ancestor)?.isDirectory()) fail(`${ancestor} is a file, not a folder`);
  try {
    accessSync(ancestor, constants.W_OK);
  } catch (error) {
    fail(`cannot create it in ${ancestor} (${(error as NodeJS.ErrnoException).code})`);
  }
}

// Opening, not access(2): for root, access says yes to files the kernel still refuses (sysfs, read-only mounts).
function readable(path: string, fail: (problem: string) => never): void {
  tryOpen(path, 'r', 'cannot be read', fail);
}

function writable(path: string, fail: (problem: string) => never): void {
  tryOpen(path, 'r+', 'cannot be written', fail);
}

function tryOpen(path: string, flags: string, what: string, fail: (problem: string) => never): void {
  try {
    closeSync(openSync(path, flags));
  } catch (error) {
    fail(`${what} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`);
  }
}
