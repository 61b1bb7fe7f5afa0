import { extractCode } from '../verify/code/index.js';

/** The program in a code response, and a way to put another program in its place. */
export interface CodeAnswer {
  readonly language: 'python' | 'javascript';
  readonly code: string;
  /** The response with the program replaced by `program`, inside the same fence. */
  readonly rewrite: (program: string) => string;
}

const DEFINES = {
  python: /^def\s+([A-Za-z_]\w*)\s*\(/gm,
  javascript: /^(?:export\s+)?function\s+([A-Za-z_$][\w$]*)\s*\(/gm,
} as const;

/**
 * The response's program as the code verifier reads it (its last fenced block, else the whole
 * response), when it defines a function a test could call; undefined for a response without one.
 */
export function codeAnswer(response: string): CodeAnswer | undefined {
  const fenced = extractCode(response);
  const code = fenced?.code ?? response;
  const language =
    fenced?.language ??
    (functionNames(code, 'python').length > 0
      ? 'python'
      : functionNames(code, 'javascript').length > 0
        ? 'javascript'
        : undefined);
  if (language === undefined || functionNames(code, language).length === 0) return undefined;
  const at = fenced ? response.lastIndexOf(code) : 0;
  const rewrite = (program: string) =>
    fenced ? `${response.slice(0, at)}${program}\n${response.slice(at + code.length)}` : program;
  return { language, code, rewrite };
}

/** The top-level functions a program defines, in order, once each. */
export function functionNames(code: string, language: CodeAnswer['language']): string[] {
  return [...new Set([...code.matchAll(DEFINES[language])].map((m) => m[1] as string))];
}
