import { z } from 'zod';
import { LANGUAGE_ALIASES, LANGUAGE_RECIPES, SANDBOX_FUSION_LANGUAGES } from './run-code-languages.js';

const KNOWN_LANGUAGES = new Set<string>([
  ...SANDBOX_FUSION_LANGUAGES,
  ...Object.keys(LANGUAGE_RECIPES),
  ...Object.keys(LANGUAGE_ALIASES),
]);

// Linear in the input (no nested quantifier): file contents can be hundreds of megabytes.
const isBase64 = (text: string) => text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);

/** A path inside the sandbox's working directory: relative, without `..`, as upstream joins it. */
const isWorkdirPath = (path: string) =>
  path !== '' &&
  !path.startsWith('/') &&
  !path.includes('\0') &&
  path.split('/').every((part) => part !== '..' && part !== '');

/**
 * `POST /run_code` request body, as SandboxFusion defines it (`RunCodeRequest` in
 * `sandbox/server/sandbox_api.py`; verl sends every field). Timeouts are float seconds;
 * `memory_limit_MB` ≤ 0 (upstream's default is -1) means the server's default limit.
 */
export const RunCodeRequestSchema = z.object({
  code: z.string(),
  language: z.string().refine((language) => KNOWN_LANGUAGES.has(language), {
    error: (issue) =>
      `unknown language "${String(issue.input)}": SandboxFusion's languages are ${SANDBOX_FUSION_LANGUAGES.join(', ')} (rewardkit also takes c, js, ts)`,
  }),
  stdin: z.string().nullish(),
  compile_timeout: z.number().positive().default(10),
  run_timeout: z.number().positive().default(10),
  memory_limit_MB: z.number().int().default(-1),
  /** File path (relative to the working directory) → base64 content; null entries are skipped, as upstream does. */
  files: z
    .record(z.string(), z.string().nullable())
    .default({})
    .superRefine((files, ctx) => {
      for (const [path, content] of Object.entries(files)) {
        if (!isWorkdirPath(path)) {
          ctx.addIssue({
            code: 'custom',
            path: [path],
            message: 'a file path must be relative to the working directory, without ".." or empty parts',
          });
        } else if (content !== null && !isBase64(content)) {
          ctx.addIssue({ code: 'custom', path: [path], message: 'the content is not valid base64' });
        }
      }
    }),
  /**
   * Files to return after the run, as upstream resolves them: relative to the working directory
   * or absolute, in the sandbox's own file system (never the host's; see run-code-supervisor.ts).
   */
  fetch_files: z
    .array(
      z
        .string()
        .refine((path) => path !== '' && !path.includes('\0'), 'a file path must be non-empty, without NUL'),
    )
    .default([]),
});
export type RunCodeRequest = z.input<typeof RunCodeRequestSchema>;
export type ParsedRunCodeRequest = z.output<typeof RunCodeRequestSchema>;

/** SandboxFusion's result of one command (compile or run): `CommandRunResult` in `sandbox/runners/types.py`. */
export interface CommandRunResult {
  /** `Finished` whatever the exit code; `Error` only when the sandbox failed to run the command. */
  status: 'Finished' | 'TimeLimitExceeded' | 'Error';
  execution_time: number | null;
  /** The exit code; a signal's death is its negative number (Python's `returncode`); null on a time limit. */
  return_code: number | null;
  stdout: string | null;
  stderr: string | null;
}

/** `POST /run_code` response body, field for field as SandboxFusion answers. */
export interface RunCodeResult {
  /** `Success`: every command exited 0; `Failed`: a non-zero exit or a time limit; `SandboxError`: a sandbox fault. */
  status: 'Success' | 'Failed' | 'SandboxError';
  message: string;
  compile_result: CommandRunResult | null;
  run_result: CommandRunResult | null;
  executor_pod_name: string | null;
  /** The fetched files, base64. */
  files: Record<string, string>;
}

/**
 * The overall status from the commands' results, as upstream's `parse_run_status` decides it: a
 * command that could not run is a `SandboxError` (its stderr is the message), a time limit or a
 * non-zero exit is `Failed`, anything else `Success`.
 */
export function runStatus(
  compile: CommandRunResult | null,
  run: CommandRunResult | null,
): Pick<RunCodeResult, 'status' | 'message'> {
  const commands = [compile, run].filter((c): c is CommandRunResult => c !== null);
  const broken = commands.find((c) => c.status === 'Error');
  if (broken) return { status: 'SandboxError', message: broken.stderr ?? '' };
  const failed = commands.some(
    (c) => c.status === 'TimeLimitExceeded' || (c.return_code !== null && c.return_code !== 0),
  );
  return { status: failed ? 'Failed' : 'Success', message: '' };
}

export function sandboxError(message: string): RunCodeResult {
  return {
    status: 'SandboxError',
    message,
    compile_result: null,
    run_result: null,
    executor_pod_name: null,
    files: {},
  };
}
