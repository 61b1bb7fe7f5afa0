import { createRequire } from 'node:module';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { RewardKitError } from '../../core/index.js';

// ajv ships CommonJS with a default export; require() gives the constructors without interop
// guesswork, on the first schema compiled: every process that registers the json kind loads this
// module, and ajv cost its start-up about 16 ms whether or not a schema was ever checked.
const require = createRequire(import.meta.url);
type AjvClass = typeof import('ajv').default;
const ajvClass = (draft2020: boolean): AjvClass =>
  (draft2020 ? require('ajv/dist/2020') : require('ajv')).default as AjvClass;

export interface JsonCheckOptions {
  /** A JSON Schema (draft-07, or 2020-12 when `$schema` says so) the value must satisfy. */
  readonly schema?: Record<string, unknown>;
  /** whole: the response is JSON; fenced: the last ```json block; first-object: the first balanced {…} or […]. */
  readonly extract?: 'whole' | 'fenced' | 'first-object';
}

export interface JsonCheckResult {
  readonly pass: boolean;
  readonly score: 0 | 1;
  readonly parsed?: unknown;
  /** Parse or schema errors, each with the JSON path it concerns. */
  readonly errors: { readonly path: string; readonly message: string }[];
  readonly reason: string;
}

const validators = new Map<string, ValidateFunction>();

/** Parses JSON from a response (whole, fenced or embedded) and validates it against a schema. */
export function jsonCheck(text: string, options: JsonCheckOptions = {}): JsonCheckResult {
  const how = options.extract ?? 'whole';
  const candidate = extractJsonText(text, how);
  if (candidate === null) {
    const what = how === 'fenced' ? 'no ```json block' : 'no JSON object or array';
    return fail([{ path: '', message: what }], `${what} in the response`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(candidate);
  } catch (error) {
    return fail(
      [{ path: '', message: (error as Error).message }],
      `not valid JSON: ${(error as Error).message}`,
    );
  }
  if (options.schema === undefined) return { pass: true, score: 1, parsed, errors: [], reason: 'valid JSON' };
  const validate = compile(options.schema);
  if (validate(parsed))
    return { pass: true, score: 1, parsed, errors: [], reason: 'valid JSON matching the schema' };
  const errors = (validate.errors ?? []).map((e: ErrorObject) => ({
    path: e.instancePath || '/',
    message: describe(e),
  }));
  return {
    pass: false,
    score: 0,
    parsed,
    errors,
    reason: `JSON does not match the schema: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
  };
}

function fail(errors: JsonCheckResult['errors'], reason: string): JsonCheckResult {
  return { pass: false, score: 0, errors, reason };
}

function compile(schema: Record<string, unknown>): ValidateFunction {
  const key = JSON.stringify(schema);
  let validate = validators.get(key);
  if (!validate) {
    const draft2020 = typeof schema.$schema === 'string' && schema.$schema.includes('2020-12');
    const ajv = new (ajvClass(draft2020))({ allErrors: true, strict: false });
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      throw new RewardKitError('RK_SPEC_INVALID', `invalid JSON Schema: ${(error as Error).message}`);
    }
    validators.set(key, validate);
  }
  return validate;
}

function describe(error: ErrorObject): string {
  if (error.keyword === 'additionalProperties') {
    return `has unexpected property "${(error.params as { additionalProperty: string }).additionalProperty}"`;
  }
  return error.message ?? error.keyword;
}

/** The JSON text to parse, or null when the response has none in the requested place. */
export function extractJsonText(text: string, how: 'whole' | 'fenced' | 'first-object'): string | null {
  if (how === 'whole') return text.trim() === '' ? null : text.trim();
  if (how === 'fenced') {
    const blocks = [...text.matchAll(/```(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)```/g)];
    const last = blocks.at(-1)?.[1];
    return last === undefined ? null : last.trim();
  }
  return firstBalanced(text);
}

/** The first balanced `{…}` or `[…]`, skipping brackets inside JSON strings. */
function firstBalanced(text: string): string | null {
  const start = text.search(/[{[]/);
  if (start === -1) return null;
  const stack: string[] = [];
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') stack.push(c === '{' ? '}' : ']');
    else if (c === '}' || c === ']') {
      if (stack.pop() !== c) return null;
      if (stack.length === 0) return text.slice(start, i + 1);
    }
  }
  return null;
}
