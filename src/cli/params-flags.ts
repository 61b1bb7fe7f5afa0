import { type Command, InvalidArgumentError, Option } from 'commander';
import { z } from 'zod';
import { issuesOf, RewardKitError } from '../core/index.js';

/**
 * One command-line flag derived from one param of a kind's params schema: the spec's
 * `truncation: {essential_ratio: 0.3}` is `--truncation-essential-ratio 0.3` on the command line,
 * so a param has one name, in the spec and on the CLI.
 */
export interface ParamFlag {
  /** Where the value goes in the params object. */
  readonly path: readonly string[];
  /** `--truncation-essential-ratio`, or `--no-truncation` for a param that is on by default. */
  readonly flag: string;
  readonly option: Option;
  /** What the flag sets: its parsed value, or `false`/`true` for a switch. */
  readonly kind: 'value' | 'switch';
}

interface Unwrapped {
  readonly inner: z.ZodType;
  readonly description?: string;
  readonly defaultValue?: unknown;
  /** From the param's `.meta({placeholder})`: `<name>` for a model, `<file>` for a path (default `<value>`). */
  readonly placeholder?: string;
  /** From the param's `.meta({short})`: a one-letter alias such as `-m`. */
  readonly short?: string;
}

const metaOf = (schema: z.ZodType): { placeholder?: string; short?: string } =>
  (z.globalRegistry.get(schema) as { placeholder?: string; short?: string } | undefined) ?? {};

type Def = { type: string; innerType?: z.ZodType; defaultValue?: unknown; [key: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schema under its `default`/`optional`/`nullable` wrappers, with the first description and default found. */
function unwrap(schema: z.ZodType): Unwrapped {
  let inner = schema;
  let description = schema.description;
  let { placeholder, short } = metaOf(schema);
  let defaultValue: unknown;
  for (;;) {
    const def = defOf(inner);
    if (!['default', 'prefault', 'optional', 'nullable'].includes(def.type) || !def.innerType) break;
    if (def.type === 'default') defaultValue = def.defaultValue;
    inner = def.innerType;
    description ??= inner.description;
    placeholder ??= metaOf(inner).placeholder;
    short ??= metaOf(inner).short;
  }
  return {
    inner,
    defaultValue,
    ...(description !== undefined && { description }),
    ...(placeholder !== undefined && { placeholder }),
    ...(short !== undefined && { short }),
  };
}

const kebab = (name: string) => name.replaceAll('_', '-');

function numberFlag(flag: string, integer: boolean) {
  return (value: string): number => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
      throw new InvalidArgumentError(
        `${flag} expects ${integer ? 'an integer' : 'a number'}, got "${value}".`,
      );
    }
    return n;
  };
}

function jsonFlag(flag: string) {
  return (value: string): unknown => {
    try {
      return JSON.parse(value);
    } catch {
      throw new InvalidArgumentError(`${flag} expects JSON, got "${value}".`);
    }
  };
}

const isInteger = (schema: z.ZodType) => (schema as unknown as { isInt?: boolean }).isInt === true;

const withDefault = (help: string, value: unknown) =>
  value === undefined || typeof value === 'object' ? help : `${help} (default: ${String(value)})`;

/**
 * The flags of a params object schema (`z.strictObject`): strings, numbers and enums take a value,
 * booleans are switches (`--no-x` when on by default), nested objects flatten into
 * `--parent-child`, a `boolean | object` param is a switch plus its children's flags, arrays
 * repeat the flag, and anything else takes JSON. `reserved` flags (the command's own) are refused
 * so that a param can never shadow them.
 */
export function paramFlags(schema: z.ZodType, reserved: ReadonlySet<string> = new Set()): ParamFlag[] {
  const flags: ParamFlag[] = [];
  const walk = (shape: Record<string, z.ZodType>, prefix: readonly string[]) => {
    for (const [key, field] of Object.entries(shape)) {
      const path = [...prefix, key];
      const name = path.map(kebab).join('-');
      const { inner, description = '', defaultValue, placeholder = 'value', short } = unwrap(field);
      // `-m, --model <name>`: the short alias only at the top level, where it cannot be ambiguous.
      const long = (arg: string) =>
        `${short !== undefined && prefix.length === 0 ? `${short}, ` : ''}--${name} ${arg}`;
      const def = defOf(inner);
      const add = (flag: ParamFlag) => {
        if (reserved.has(flag.flag.replace(/^--no-/, '--'))) {
          throw new RewardKitError(
            'RK_USAGE',
            `param "${path.join('.')}" would shadow the command's ${flag.flag}`,
          );
        }
        flags.push(flag);
      };
      const value = (option: Option) => add({ path, flag: `--${name}`, option, kind: 'value' });
      const switchFlag = (on: boolean | undefined, help: string) => {
        const flag = on === true ? `--no-${name}` : `--${name}`;
        const text = on === true ? `${help} (on by default; this turns it off)` : help;
        add({ path, flag, option: new Option(flag, text), kind: 'switch' });
      };
      switch (def.type) {
        case 'string':
          value(new Option(long(`<${placeholder}>`), withDefault(description, defaultValue)));
          break;
        case 'number':
          value(
            new Option(
              long(`<${placeholder === 'value' ? 'n' : placeholder}>`),
              withDefault(description, defaultValue),
            ).argParser(numberFlag(`--${name}`, isInteger(inner))),
          );
          break;
        case 'enum':
          value(
            new Option(long(`<${placeholder}>`), withDefault(description, defaultValue)).choices(
              Object.values((def as unknown as { entries: Record<string, string> }).entries),
            ),
          );
          break;
        case 'boolean':
          switchFlag(defaultValue === true, description);
          break;
        case 'object':
          walk((inner as z.ZodObject).shape, path);
          break;
        case 'union': {
          const options = (def as unknown as { options: z.ZodType[] }).options;
          const object = options.find((o) => defOf(o).type === 'object') as z.ZodObject | undefined;
          if (object && options.length === 2 && options.some((o) => defOf(o).type === 'boolean')) {
            switchFlag(defaultValue === true, description);
            walk(object.shape, path);
            break;
          }
          value(new Option(`--${name} <json>`, `${description} (JSON)`).argParser(jsonFlag(`--${name}`)));
          break;
        }
        case 'array': {
          const element = unwrap((def as unknown as { element: z.ZodType }).element).inner;
          const parse =
            defOf(element).type === 'number'
              ? numberFlag(`--${name}`, isInteger(element))
              : defOf(element).type === 'string'
                ? (v: string) => v
                : jsonFlag(`--${name}`);
          value(
            new Option(`--${name} <value>`, `${description} (repeat the flag for several)`).argParser(
              (v: string, previous: unknown[] | undefined) => [...(previous ?? []), parse(v)],
            ),
          );
          break;
        }
        default:
          value(new Option(`--${name} <json>`, `${description} (JSON)`).argParser(jsonFlag(`--${name}`)));
      }
    }
  };
  walk((schema as z.ZodObject).shape, []);
  return flags;
}

/** Adds the flags to a command. */
export function addParamFlags(command: Command, flags: readonly ParamFlag[]): Command {
  for (const flag of flags) command.addOption(flag.option);
  return command;
}

/**
 * The params object the flags given on the command line describe, as a spec would write it (flags
 * left out are left out, so the schema's defaults apply), checked against the schema; a failure
 * names the flag.
 */
export function paramsFromFlags<S extends z.ZodType>(
  schema: S,
  flags: readonly ParamFlag[],
  command: Command,
  /** Params the command sets from flags of its own (a command's own `-m, --model`). */
  preset: Record<string, unknown> = {},
): z.input<S> {
  const params: Record<string, unknown> = { ...preset };
  const given = flags.filter((f) => command.getOptionValueSource(f.option.attributeName()) === 'cli');
  // Switches first, so a child flag of a `boolean | object` param can turn the switch into an object.
  for (const flag of [...given].sort((a, b) => (a.kind === b.kind ? 0 : a.kind === 'switch' ? -1 : 1))) {
    let node = params;
    for (const [i, key] of flag.path.slice(0, -1).entries()) {
      if (node[key] === false) {
        const parent = flags.find(
          (f) => f.kind === 'switch' && f.path.join('.') === flag.path.slice(0, i + 1).join('.'),
        );
        throw new RewardKitError('RK_USAGE', `${flag.flag} cannot be combined with ${parent?.flag ?? key}`);
      }
      if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
      node = node[key] as Record<string, unknown>;
    }
    const last = flag.path.at(-1) as string;
    const raw = command.getOptionValue(flag.option.attributeName());
    node[last] = flag.kind === 'switch' ? !flag.flag.startsWith('--no-') : raw;
  }
  const parsed = schema.safeParse(params);
  if (parsed.success) return params as z.input<S>;
  const issue = issuesOf(parsed.error)[0];
  const path = parsed.error.issues[0]?.path.map(String) ?? [];
  const message = issue?.message.endsWith('received undefined')
    ? 'is required'
    : (issue?.message ?? 'invalid');
  throw new RewardKitError('RK_USAGE', `${flagsAt(flags, path)}${insideJson(flags, path)}: ${message}`);
}

/** Where in a JSON flag's value the problem is (`--rubric` at `criteria.0.weight`), when it is inside one. */
function insideJson(flags: readonly ParamFlag[], path: readonly string[]): string {
  const flag = flags.find(
    (f) => f.option.flags.endsWith('<json>') && f.path.every((key, i) => path[i] === key),
  );
  return flag && path.length > flag.path.length ? ` (at ${path.slice(flag.path.length).join('.')})` : '';
}

/** The flag of a param path: the longest flag path it starts with, else the flags below it. */
function flagsAt(flags: readonly ParamFlag[], path: readonly string[]): string {
  const above = flags
    .filter((f) => f.path.every((key, i) => path[i] === key))
    .sort((a, b) => b.path.length - a.path.length)[0];
  if (above) return above.flag;
  const below = flags.filter((f) => path.every((key, i) => f.path[i] === key)).map((f) => f.flag);
  return below.length > 0 ? below.join(', ') : `--${path.map(kebab).join('-')}`;
}

/**
 * The model names the params give: every top-level string param whose placeholder is `<name>` (a
 * model from the models file; a choice such as claims' `--reward <name>` is an enum, not a model),
 * so a command can pick them all before the first row.
 */
export function modelParamNames(schema: z.ZodType, params: Record<string, unknown>): string[] {
  return Object.entries((schema as z.ZodObject).shape).flatMap(([key, param]) => {
    const { inner, placeholder } = unwrap(param as z.ZodType);
    const value = params[key];
    return placeholder === 'name' && defOf(inner).type === 'string' && typeof value === 'string'
      ? [value]
      : [];
  });
}
