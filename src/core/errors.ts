import type { z } from 'zod';

const marker = Symbol.for('rewardkit.error');

/** Stable identifiers for every failure rewardkit reports; the server maps them to HTTP statuses. */
export type RewardKitErrorCode =
  | 'RK_INPUT_PARSE'
  | 'RK_INPUT_SCHEMA'
  | 'RK_INPUT_ENCODING'
  | 'RK_SPEC_PARSE'
  | 'RK_SPEC_INVALID'
  | 'RK_UNKNOWN_PRESET'
  | 'RK_SOURCE_FAILED'
  | 'RK_UNKNOWN_MODEL'
  | 'RK_MODELS_INVALID'
  | 'RK_TIMEOUT'
  | 'RK_SANDBOX_UNAVAILABLE'
  | 'RK_BACKEND_UNAVAILABLE'
  /** An LLM backend call failed after its retries (`ChatModelError`). */
  | 'RK_BACKEND_FAILED'
  | 'RK_STORE'
  /** The store cannot be reached now (down, restarting, hung past its timeouts); retry later. */
  | 'RK_STORE_UNAVAILABLE'
  | 'RK_USAGE'
  /** Writing an output file failed part-way (disk full, permissions, a closed pipe). */
  | 'RK_OUTPUT'
  /** A library function was called with arguments it cannot take (the issues say which). */
  | 'RK_INVALID_ARGUMENT'
  /** The reward server could not listen on its address: the port is taken, or not allowed. */
  | 'RK_LISTEN'
  /** HTTP answers of the reward server (`ApiError`), whose own code is in `apiCode`. */
  | 'RK_HTTP'
  /** A state rewardkit's own logic should never reach: a bug to report. */
  | 'RK_INTERNAL';

/** One field-level problem: the zod issue code, a dotted path (`samples.3.response`), the message. */
export interface Issue {
  readonly code: string;
  readonly path: string;
  readonly message: string;
}

/**
 * The one error family rewardkit throws: every error is a `RewardKitError` with a code (subclasses
 * add what their kind has: `SpecError` its issues with positions, `ChatModelError` its attempts,
 * `ApiError` its HTTP status). `isInstance` works across duplicated package copies because it
 * checks a global symbol, not the prototype chain. `isRetryable` says whether the same call may
 * succeed later (a backend timeout) or never will (bad input).
 */
export class RewardKitError extends Error {
  readonly [marker] = true;
  readonly code: RewardKitErrorCode;
  readonly isRetryable: boolean;

  constructor(
    code: RewardKitErrorCode,
    message: string,
    options?: { cause?: unknown; isRetryable?: boolean },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'RewardKitError';
    this.code = code;
    this.isRetryable = options?.isRetryable ?? false;
  }

  static isInstance(error: unknown): error is RewardKitError {
    return typeof error === 'object' && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}

/** A human-readable one-liner for any thrown value. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/**
 * A zod failure as issues — the one conversion; the CLI, the HTTP layer and error messages each
 * render them their own way. `root` names the value itself (an issue with an empty path).
 */
export function issuesOf(error: z.ZodError | readonly z.core.$ZodIssue[], root = 'value'): Issue[] {
  const list = Array.isArray(error) ? error : (error as z.ZodError).issues;
  return list.map((issue) => ({
    code: issue.code,
    path: issue.path.length === 0 ? root : issue.path.map(String).join('.'),
    message: issue.message,
  }));
}

/** Issues in one line: `path: message; path: message` (the first `limit`, then how many more). */
export function issuesText(issues: readonly Issue[], limit = 3): string {
  const shown = issues.slice(0, limit).map((i) => `${i.path}: ${i.message}`);
  const more = issues.length - shown.length;
  return `${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''}`;
}

/** A library function called with arguments it cannot take; `issues` says which and why. */
export class ArgumentError extends RewardKitError {
  readonly issues: readonly Issue[];

  constructor(message: string, issues: readonly Issue[]) {
    super('RK_INVALID_ARGUMENT', message);
    this.name = 'ArgumentError';
    this.issues = issues;
  }
}

/**
 * `value` checked against `schema` at a library boundary: the parsed value, or a
 * `ArgumentError` (`RK_INVALID_ARGUMENT`) that names `what` and carries the issues — never a raw
 * `ZodError`.
 */
export function parseArgument<S extends z.ZodType>(schema: S, value: unknown, what: string): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issues = issuesOf(parsed.error, what);
  throw new ArgumentError(`${what}: ${issuesText(issues)}`, issues);
}
