import type { z } from 'zod';
import { SANDBOX_FUSION_LANGUAGES } from '../verify/code/index.js';

/**
 * One entry of FastAPI's 422 answer (`request_validation_exception_handler` over pydantic 2's
 * `ValidationError.errors()`): where (`["body", field, …]`), what (pydantic's error type) and
 * the message pydantic words. pydantic's `input` is left out: it would echo the request's code
 * and files back.
 */
export interface FastApiValidationIssue {
  readonly type: string;
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly ctx?: Readonly<Record<string, unknown>>;
}

/** The body of FastAPI's 422: `{"detail": [issue, …]}`. */
export interface FastApiValidationError {
  readonly detail: readonly FastApiValidationIssue[];
}

/** FastAPI's answer to a body that is not JSON: the position and the decoder's complaint. */
export function jsonInvalid(error: Error, text: string): FastApiValidationError {
  const position = /position (\d+)/.exec(error.message);
  // V8 names no position when the text ends early: the decoder stopped at its end.
  const at = position ? Number(position[1]) : /end of JSON/.test(error.message) ? text.length : 0;
  return {
    detail: [
      {
        type: 'json_invalid',
        loc: ['body', at],
        msg: 'JSON decode error',
        ctx: { error: error.message },
      },
    ],
  };
}

/** pydantic's wording of the type a field should have, by what zod expected. */
const TYPE_ERRORS: Readonly<Record<string, readonly [string, string]>> = {
  string: ['string_type', 'Input should be a valid string'],
  number: ['float_type', 'Input should be a valid number'],
  int: ['int_type', 'Input should be a valid integer'],
  array: ['list_type', 'Input should be a valid list'],
  record: ['dict_type', 'Input should be a valid dictionary'],
  object: ['dict_type', 'Input should be a valid dictionary'],
};

// pydantic lists a Literal's values quoted, comma-separated, the last after "or".
const LANGUAGE_LIST = `${SANDBOX_FUSION_LANGUAGES.slice(0, -1)
  .map((l) => `'${l}'`)
  .join(', ')} or '${SANDBOX_FUSION_LANGUAGES.at(-1)}'`;

/**
 * A `/run_code` body's schema errors as FastAPI answers them, so clients written against
 * SandboxFusion read them unchanged. Checks upstream lacks (base64 contents, positive timeouts,
 * file paths) are pydantic's `value_error` or `greater_than`, in its wording.
 */
export function fastApiValidationError(error: z.ZodError, body: unknown): FastApiValidationError {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      detail: [
        body === null || body === undefined
          ? { type: 'missing', loc: ['body'], msg: 'Field required' }
          : {
              type: 'model_type',
              loc: ['body'],
              msg: 'Input should be a valid dictionary or instance of RunCodeRequest',
              ctx: { class_name: 'RunCodeRequest' },
            },
      ],
    };
  }
  return {
    detail: error.issues.map((issue) => {
      const loc = ['body', ...issue.path.map((part) => (typeof part === 'symbol' ? String(part) : part))];
      if (issue.code === 'invalid_type') {
        if (valueAt(body, issue.path) === undefined) return { type: 'missing', loc, msg: 'Field required' };
        const [type, msg] = TYPE_ERRORS[issue.expected] ?? ['value_error', `Value error, ${issue.message}`];
        return { type, loc, msg };
      }
      if (issue.path.length === 1 && issue.path[0] === 'language') {
        return {
          type: 'literal_error',
          loc,
          msg: `Input should be ${LANGUAGE_LIST}`,
          ctx: { expected: LANGUAGE_LIST },
        };
      }
      if (issue.code === 'too_small' && issue.origin === 'number' && !issue.inclusive) {
        const gt = Number(issue.minimum);
        return { type: 'greater_than', loc, msg: `Input should be greater than ${gt}`, ctx: { gt } };
      }
      return { type: 'value_error', loc, msg: `Value error, ${issue.message}` };
    }),
  };
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let at = value;
  for (const part of path) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<PropertyKey, unknown>)[part];
  }
  return at;
}
