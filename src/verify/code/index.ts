export { callBasedTest } from './call-based-test.js';
export {
  type CodeJudging,
  type CodeSandbox,
  type CodeSandboxOptions,
  createCodeSandbox,
} from './code-sandbox.js';
export {
  type CodeLanguage,
  type CodeLimits,
  type CodeTest,
  type CodeTestReport,
  type CodeTestResult,
  CodeTestSchema,
  sameOutput,
} from './code-test.js';
export { extractCode } from './extract-code.js';
export { bubblewrapWorks } from './python-runner.js';
export { LANGUAGE_RECIPES, SANDBOX_FUSION_LANGUAGES } from './run-code-languages.js';
export {
  type CommandRunResult,
  type ParsedRunCodeRequest,
  type RunCodeRequest,
  RunCodeRequestSchema,
  type RunCodeResult,
} from './sandbox-fusion.js';
export { CodeRowSchema, type CodeVerification, verifyCode } from './verify-code.js';
