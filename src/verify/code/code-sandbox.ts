import { prettifyError } from 'zod';
import { RewardKitError } from '../../core/index.js';
import {
  type CodeLanguage,
  type CodeLimits,
  type CodeTest,
  type CodeTestReport,
  DEFAULT_LIMITS,
} from './code-test.js';
import { bubblewrapWorks, runPythonTests } from './python-runner.js';
import { createQuickJsPool, type QuickJsPool } from './quickjs-pool.js';
import { runCodeInBubblewrap, unsupportedLanguage } from './run-code.js';
import { runCodeAsStdioTest } from './run-code-as-stdio-test.js';
import { canonicalLanguage, LANGUAGE_RECIPES } from './run-code-languages.js';
import { createSandboxPool, type SandboxPool } from './run-code-pool.js';
import {
  type RunCodeRequest,
  RunCodeRequestSchema,
  type RunCodeResult,
  sandboxError,
} from './sandbox-fusion.js';

export interface CodeSandboxOptions {
  /**
   * Run Python with rlimits only when bubblewrap is unavailable. Unsafe: the program can read
   * and write host files and use the network. Results are marked `unsafe: true`.
   */
  readonly allowUnsafeLocal?: boolean;
  /** Default limits for every program; per-call limits override them. */
  readonly limits?: CodeLimits;
  /**
   * `/run_code`: folders of Node modules offered to programs (absolute, symlinks resolved), bound
   * read-only and on NODE_PATH; the jest language takes jest from the first that has it.
   */
  readonly nodeModules?: readonly string[];
  /**
   * `/run_code`: how many bubblewrap sandboxes to keep started ahead of their jobs
   * (`run-code-pool.ts`); each still runs one job only. 0 starts every sandbox on its request.
   */
  readonly sandboxPool?: number;
}

/** The pool size when none is given: measured in BENCHMARKS.md (`/run_code` overhead). */
const DEFAULT_SANDBOX_POOL = 2;

/** How tests are judged. */
export interface CodeJudging {
  /**
   * Strict (the default): an assert test passes only when the harness sees its code run to the
   * end, and its comparisons accept only builtin values (see docs/verifiers/code.md). `false`
   * keeps the lenient behaviour some benchmarks were scored with: an assert test passes when the
   * process exits 0.
   */
  readonly strict?: boolean;
}

/**
 * Runs untrusted programs. Code rewards: JavaScript in QuickJS (WASM, on worker threads), Python
 * in CPython under bubblewrap. SandboxFusion's `/run_code`: every language with a host toolchain
 * under bubblewrap (`run-code.ts`).
 */
export interface CodeSandbox {
  /** How Python is isolated here; `none` means Python is refused. Probed once. */
  isolation(): 'bubblewrap' | 'unsafe-local' | 'none';
  runTests(
    program: { language: CodeLanguage; code: string },
    tests: readonly CodeTest[],
    limits?: CodeLimits,
    judging?: CodeJudging,
  ): Promise<CodeTestReport>;
  /**
   * SandboxFusion's `/run_code`: one run with stdin, answered in its exact shape — under bubblewrap
   * for every language whose toolchain the host has, in QuickJS for JavaScript where bubblewrap
   * is missing. Never throws for bad input or a sandbox fault (those are `SandboxError` answers);
   * rejects only when `signal` aborts, after killing the run.
   */
  runCode(request: RunCodeRequest, signal?: AbortSignal): Promise<RunCodeResult>;
  close(): Promise<void>;
}

export function createCodeSandbox(options: CodeSandboxOptions = {}): CodeSandbox {
  let isolation: 'bubblewrap' | 'unsafe-local' | 'none' | undefined;
  const python = () => {
    isolation ??= bubblewrapWorks() ? 'bubblewrap' : options.allowUnsafeLocal ? 'unsafe-local' : 'none';
    return isolation;
  };
  let quickjs: QuickJsPool | undefined;
  const poolSize = options.sandboxPool ?? DEFAULT_SANDBOX_POOL;
  if (!Number.isInteger(poolSize) || poolSize < 0) {
    throw new RewardKitError('RK_USAGE', `sandboxPool must be a whole number ≥ 0; got ${poolSize}`);
  }
  let pool: SandboxPool | undefined;
  const runTests: CodeSandbox['runTests'] = async (program, tests, limits = {}, judging = {}) => {
    const merged = { ...options.limits, ...limits };
    const strict = judging.strict ?? true;
    if (program.language === 'javascript') {
      quickjs ??= createQuickJsPool();
      const results = await quickjs.run(program.code, tests, merged, strict);
      return report(results, 'quickjs', false);
    }
    const mode = python();
    if (mode === 'none') {
      throw new RewardKitError(
        'RK_SANDBOX_UNAVAILABLE',
        'refusing to run untrusted Python: bubblewrap is not available (install the "bubblewrap" package), and unsafe local execution was not allowed (--allow-unsafe-code)',
      );
    }
    const results = await runPythonTests(program.code, tests, merged, mode, strict);
    return report(results, mode, mode === 'unsafe-local');
  };
  return {
    isolation: python,
    runTests,
    async runCode(request, signal) {
      const parsed = RunCodeRequestSchema.safeParse(request);
      if (!parsed.success) return sandboxError(prettifyError(parsed.error));
      if (bubblewrapWorks()) {
        if (poolSize > 0) pool ??= createSandboxPool(poolSize);
        return runCodeInBubblewrap(
          parsed.data,
          {
            defaultMemoryMb: options.limits?.memoryMb ?? DEFAULT_LIMITS.memoryMb,
            outputBytes: options.limits?.outputBytes ?? DEFAULT_LIMITS.outputBytes,
            ...(options.nodeModules && { nodeModules: options.nodeModules }),
          },
          signal,
          pool,
        );
      }
      const language = canonicalLanguage(parsed.data.language);
      // A language rewardkit never runs is named as such, sandbox or not.
      if (!(language in LANGUAGE_RECIPES)) return sandboxError(unsupportedLanguage(parsed.data.language));
      if (language === 'nodejs') return runCodeAsStdioTest(parsed.data, 'javascript', runTests);
      if (language === 'python') return runCodeAsStdioTest(parsed.data, 'python', runTests);
      return sandboxError(
        `refusing to run untrusted ${parsed.data.language}: bubblewrap is not available (install the "bubblewrap" package); without it /run_code runs only JavaScript (in QuickJS) and, with --allow-unsafe-code, Python`,
      );
    },
    async close() {
      await quickjs?.close();
      quickjs = undefined;
      await pool?.close();
      pool = undefined;
    },
  };
}

function report(
  results: CodeTestReport['results'],
  sandbox: CodeTestReport['sandbox'],
  unsafe: boolean,
): CodeTestReport {
  return {
    passed: results.filter((r) => r.status === 'passed').length,
    total: results.length,
    results,
    sandbox,
    unsafe,
  };
}
