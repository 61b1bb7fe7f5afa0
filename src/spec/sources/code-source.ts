import { z } from 'zod';
import { verifyCode } from '../../verify/code/index.js';
import { defineSourceKind } from '../source-kind.js';
import { codeTestsOf } from './code-tests.js';

/** Runs the response's code against the sample's tests in the sandbox. */
export const codeSource = defineSourceKind({
  kind: 'code',
  description:
    'the last fenced code block (or a bare program) passes the sample tests, run in the sandbox (Python, JavaScript)',
  params: z.strictObject({
    /** Language when neither the sample (metadata.language) nor the code fence says. */
    language: z.enum(['python', 'javascript']).default('python'),
    /** `fraction`: share of tests passed; `all`: 1 only when every test passes. */
    scoring: z.enum(['fraction', 'all']).default('fraction'),
    /** Per-test wall-clock limit. */
    run_timeout_ms: z.number().int().positive().default(5000),
    memory_limit_mb: z.number().int().positive().default(512),
    /**
     * Strict assert tests: a test passes only when its code ran to its end, comparing builtin
     * values only. `false` keeps the lenient verdict (the process exited 0) for benchmarks that
     * were scored that way; it can be gamed (docs/verifiers/code.md).
     */
    strict: z.boolean().default(true),
  }),
  create: (params) => async (sample, context) => {
    const tests = codeTestsOf(sample);
    const language =
      sample.metadata.language === 'javascript' || sample.metadata.language === 'python'
        ? sample.metadata.language
        : params.language;
    const result = await verifyCode(context.services.codeSandbox(), sample.response, tests, {
      language,
      scoring: params.scoring,
      limits: { timeoutMs: params.run_timeout_ms, memoryMb: params.memory_limit_mb },
      strict: params.strict,
    });
    return {
      score: result.score,
      verdict: result.score === 1 ? 'pass' : 'fail',
      detail: result,
      reason: result.reason,
    };
  },
});
