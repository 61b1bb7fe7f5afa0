import { z } from 'zod';
import { RewardKitError, SampleIdSchema } from '../../core/index.js';
import type { CodeSandbox } from './code-sandbox.js';
import {
  type CodeLanguage,
  type CodeLimits,
  type CodeTest,
  type CodeTestReport,
  CodeTestSchema,
} from './code-test.js';
import { extractCode } from './extract-code.js';

export interface CodeVerification extends CodeTestReport {
  /** passed / total, or 1/0 when scoring is `all`. */
  readonly score: number;
  readonly language: CodeLanguage;
  readonly reason: string;
}

/**
 * Extracts the last fenced code block of a response and runs it against the tests. A response
 * with no fence at all is the program itself, as verl's code scorers read it (a model answering
 * with bare code); one whose fences are all in another language scores 0 with that reason. A
 * sandbox that cannot run is an error, thrown.
 */
export async function verifyCode(
  sandbox: CodeSandbox,
  response: string,
  tests: readonly CodeTest[],
  options: {
    language?: CodeLanguage;
    scoring?: 'fraction' | 'all';
    limits?: CodeLimits;
    /** Strict assert tests (the default); `false` for benchmarks scored the lenient way. */
    strict?: boolean;
  } = {},
): Promise<CodeVerification> {
  if (tests.length === 0) throw new RewardKitError('RK_INPUT_SCHEMA', 'no tests to run');
  const unfenced = !response.includes('```');
  const extracted = unfenced
    ? { code: response, language: undefined }
    : extractCode(response, options.language);
  const language = extracted?.language ?? options.language ?? 'python';
  if (!extracted) {
    return {
      passed: 0,
      total: tests.length,
      results: [],
      sandbox: language === 'javascript' ? 'quickjs' : 'bubblewrap',
      unsafe: false,
      score: 0,
      language,
      reason: `no fenced ${language} code block in the response`,
    };
  }
  const report = await sandbox.runTests({ language, code: extracted.code }, tests, options.limits, {
    strict: options.strict ?? true,
  });
  const score =
    options.scoring === 'all' ? (report.passed === report.total ? 1 : 0) : report.passed / report.total;
  const firstBad = report.results.find((r) => r.status !== 'passed');
  const tally = firstBad
    ? `${report.passed}/${report.total} tests passed; test ${firstBad.index}: ${firstBad.status}${firstBad.reason ? ` (${firstBad.reason})` : ''}`
    : `${report.passed}/${report.total} tests passed`;
  return {
    ...report,
    score,
    language,
    reason: unfenced ? `no fenced code block: the whole response ran as the program; ${tally}` : tally,
  };
}

/** Rows of `rewardkit verify code`. */
export const CodeRowSchema = z.object({
  id: SampleIdSchema,
  response: z.string(),
  language: z.enum(['python', 'javascript']).optional(),
  tests: z.array(CodeTestSchema).min(1),
});
