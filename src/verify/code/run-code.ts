import { existsSync } from 'node:fs';
import { errorMessage, requireOptional } from '../../core/index.js';
import {
  canonicalLanguage,
  LANGUAGE_RECIPES,
  type LanguageRecipe,
  missingToolchain,
  type ProgramContext,
} from './run-code-languages.js';
import type { SandboxPool } from './run-code-pool.js';
import { runInBubblewrap, type SandboxJob, type SandboxStep, type StepReport } from './run-code-runner.js';
import {
  type CommandRunResult,
  type ParsedRunCodeRequest,
  type RunCodeResult,
  runStatus,
  sandboxError,
} from './sandbox-fusion.js';

/** The least memory a compile step is allowed, MB, whatever the program's limit. */
export const COMPILE_MEMORY_MB = 1024;

export interface RunCodeLimits {
  /** The limit when a request asks for none (`memory_limit_MB` ≤ 0). */
  readonly defaultMemoryMb: number;
  /** stdout and stderr kept per command, bytes (upstream reads 1 MiB of each). */
  readonly outputBytes: number;
  /**
   * Folders of Node modules the server offers programs (`serve --sandbox-node-path`): bound
   * read-only and put on NODE_PATH before Debian's /usr/share/nodejs; jest is looked up there first.
   */
  readonly nodeModules?: readonly string[];
}

/** Where Debian installs Node modules (node-lodash); nodesource's node does not look there itself. */
export const DEBIAN_NODE_MODULES = '/usr/share/nodejs';

export function unsupportedLanguage(language: string): string {
  return `language "${language}" is not supported by rewardkit's sandbox; it runs ${Object.keys(LANGUAGE_RECIPES).join(', ')}`;
}

/** The recipe for a request's language, or why it cannot run here. */
export function recipeFor(language: string): { recipe: LanguageRecipe; name: string } | { error: string } {
  const name = canonicalLanguage(language);
  const recipe = LANGUAGE_RECIPES[name];
  if (!recipe) {
    return { error: unsupportedLanguage(language) };
  }
  const missing = missingToolchain(name, recipe);
  return missing ? { error: missing } : { recipe, name };
}

/**
 * SandboxFusion's `/run_code` in a bubblewrap sandbox: the request's files and the code are
 * written into a private tmpfs working directory, the compile step (if any) runs under
 * `compile_timeout`, the program under `run_timeout` with `stdin`, and `fetch_files` come back
 * base64. A compile that fails skips the run (`run_result: null`), as upstream does. With `pool`,
 * the job runs in a sandbox started ahead for its shape (still one sandbox per job).
 */
export async function runCodeInBubblewrap(
  request: ParsedRunCodeRequest,
  limits: RunCodeLimits,
  signal?: AbortSignal,
  pool?: SandboxPool,
): Promise<RunCodeResult> {
  const found = recipeFor(request.language);
  if ('error' in found) return sandboxError(found.error);
  const { recipe } = found;
  await recipe.setUp?.();
  const memoryMb = request.memory_limit_MB > 0 ? request.memory_limit_MB : limits.defaultMemoryMb;
  const memoryBytes = memoryMb * 1024 * 1024;
  const files: Record<string, string> = {};
  let filesBytes = 0;
  for (const [path, content] of Object.entries(request.files)) {
    if (content === null) continue;
    files[path] = content;
    filesBytes += Math.floor((content.length * 3) / 4);
  }
  // The files live in the sandbox's tmpfs, which counts against the memory limit.
  if (filesBytes > memoryBytes / 2) {
    return sandboxError(
      `files: ${filesBytes} bytes decoded exceed half the memory limit (${memoryMb} MB), which is what the sandbox's working directory may hold before the program runs`,
    );
  }
  const offered = limits.nodeModules ?? [];
  const nodeModules = [...offered, ...(existsSync(DEBIAN_NODE_MODULES) ? [DEBIAN_NODE_MODULES] : [])];
  const program: ProgramContext = {
    code: request.code,
    fileNames: Object.keys(request.files),
    memoryMb,
    nodeModules,
  };
  const unavailable = recipe.unavailable?.(program);
  if (unavailable !== undefined) return sandboxError(unavailable);
  // Every step sees the offered Node modules (a Python program may start node too).
  const env = { NODE_PATH: nodeModules.join(':'), ...recipe.env };
  const refusal = recipe.refuse?.(program);
  if (refusal !== undefined) {
    // Upstream answers such a program with an errored compile and no run.
    const refused: CommandRunResult = {
      status: 'Error',
      execution_time: 0,
      return_code: 1,
      stdout: '',
      stderr: refusal,
    };
    return { ...runStatus(refused, null), ...result(refused, null, {}) };
  }
  let compileResult: CommandRunResult | null = null;
  let source = recipe.rewrite ? recipe.rewrite(request.code) : request.code;
  if (recipe.transpile === 'typescript') {
    const ts = loadTypeScript();
    // Without the optional package the language is unavailable here, said as for a missing toolchain.
    if ('error' in ts) return sandboxError(ts.error);
    const transpiled = transpileTypeScript(ts.api, source);
    if (transpiled.diagnostics) {
      compileResult = {
        status: 'Finished',
        execution_time: transpiled.seconds,
        return_code: 1,
        stdout: '',
        stderr: transpiled.diagnostics,
      };
      return { ...runStatus(compileResult, null), ...result(compileResult, null, {}) };
    }
    source = transpiled.javascript;
  }
  for (const [path, text] of Object.entries(recipe.extraFiles?.(program) ?? {})) {
    if (!(path in files)) files[path] = Buffer.from(text, 'utf8').toString('base64');
  }
  files[typeof recipe.source === 'string' ? recipe.source : recipe.source(program)] = Buffer.from(
    source,
    'utf8',
  ).toString('base64');
  const steps: SandboxStep[] = [];
  if (recipe.compile) {
    // The compiler is not the program under test: rustc alone takes more than 128 MB, so the
    // compile step is counted against at least COMPILE_MEMORY_MB, with no address-space limit.
    const compileBytes = Math.max(memoryBytes, COMPILE_MEMORY_MB * 1024 * 1024);
    steps.push({
      argv: recipe.compile(program),
      timeoutS: request.compile_timeout,
      memoryBytes: compileBytes,
      addressSpaceBytes: null,
      env,
    });
  }
  steps.push({
    argv: recipe.run(program),
    timeoutS: request.run_timeout,
    memoryBytes,
    addressSpaceBytes: recipe.memory === 'address-space' ? memoryBytes : null,
    env,
    stdin: request.stdin ?? '',
  });
  let report: Awaited<ReturnType<typeof runInBubblewrap>>;
  try {
    const job: SandboxJob = {
      files,
      steps,
      fetchFiles: request.fetch_files,
      tmpfsBytes: memoryBytes,
      outputBytes: limits.outputBytes,
      // jest and typescript usually share one node_modules folder: bound once.
      binds: [...new Set([...offered, ...(recipe.binds?.(program) ?? [])])],
    };
    report = await runInBubblewrap(job, signal, pool?.take(job));
  } catch (error) {
    if (signal?.aborted) throw error;
    return sandboxError(`the sandbox failed: ${(error as Error).message}`);
  }
  if (report.error) return sandboxError(report.error);
  const [first, second] = report.steps.map(commandResult);
  if (compileResult === null && recipe.compile) compileResult = first ?? null;
  const runResult = (recipe.compile ? second : first) ?? null;
  const status = runStatus(compileResult, runResult);
  // Upstream's message is empty unless the sandbox failed; rewardkit says there what it declined.
  const message = [status.message, ...report.notes].filter((m) => m !== '').join('\n');
  return { ...status, message, ...result(compileResult, runResult, report.files) };
}

const result = (
  compile: CommandRunResult | null,
  run: CommandRunResult | null,
  files: Record<string, string>,
) => ({ compile_result: compile, run_result: run, executor_pod_name: null, files });

function commandResult(step: StepReport): CommandRunResult {
  const base = { execution_time: step.elapsed_s, stdout: step.stdout, stderr: step.stderr };
  switch (step.status) {
    case 'timeout':
      return { ...base, status: 'TimeLimitExceeded', return_code: null };
    case 'error':
      return { ...base, status: 'Error', return_code: null };
    case 'memory':
      // Upstream's limit is an rlimit: the program dies with a non-zero code and runs "Finished".
      return {
        ...base,
        status: 'Finished',
        return_code: step.exit_code ?? -9,
        stderr: `${step.stderr}${step.stderr && !step.stderr.endsWith('\n') ? '\n' : ''}rewardkit: killed for exceeding the memory limit (resident memory plus working-directory files)\n`,
      };
    case 'finished':
      return { ...base, status: 'Finished', return_code: step.exit_code };
  }
}

interface TypeScriptApi {
  transpileModule(
    input: string,
    options: {
      compilerOptions: Record<string, unknown>;
      reportDiagnostics: boolean;
      fileName: string;
    },
  ): {
    outputText: string;
    diagnostics?: readonly { messageText: unknown; start?: number }[];
  };
  ModuleKind: { CommonJS: number };
  ScriptTarget: { ES2022: number };
  flattenDiagnosticMessageText(message: unknown, newLine: string): string;
}

let typescript: TypeScriptApi | undefined;

/** The `typescript` package (optional, loaded on the first TypeScript program), or why it cannot load. */
function loadTypeScript(): { api: TypeScriptApi } | { error: string } {
  try {
    typescript ??= requireOptional<TypeScriptApi>('typescript', 'typescript');
    return { api: typescript };
  } catch (error) {
    return { error: errorMessage(error) };
  }
}

/**
 * TypeScript → JavaScript with the `typescript` package's `transpileModule`: types are erased,
 * nothing is type-checked (as `tsx`, upstream's runner, does); only syntax errors stop the run.
 * Modules become CommonJS so `require` and `import` of Node's builtins both work, default imports
 * of CommonJS modules included.
 */
function transpileTypeScript(
  ts: TypeScriptApi,
  code: string,
): { javascript: string; diagnostics?: string; seconds: number } {
  const started = performance.now();
  const out = ts.transpileModule(code, {
    // esModuleInterop: `import assert from "assert"` gets the CommonJS module itself, as tsx gives it.
    compilerOptions: {
      module: ts.ModuleKind.CommonJS,
      target: ts.ScriptTarget.ES2022,
      esModuleInterop: true,
    },
    reportDiagnostics: true,
    fileName: 'main.ts',
  });
  const seconds = (performance.now() - started) / 1000;
  const diagnostics = (out.diagnostics ?? []).map((d) =>
    ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  );
  return diagnostics.length > 0
    ? { javascript: out.outputText, diagnostics: `main.ts: ${diagnostics.join('\nmain.ts: ')}\n`, seconds }
    : { javascript: out.outputText, seconds };
}
