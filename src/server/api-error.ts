import { type Issue, RewardKitError, type RewardKitErrorCode } from '../core/index.js';

/** One field-level problem in a request body (`issuesOf`: code, a dotted path such as `samples.3.response`, message). */
export type ApiIssue = Issue;

/** 499 is nginx's "client closed request": nobody reads it, but metrics and logs show it. */
export type ApiErrorStatus = 400 | 401 | 403 | 404 | 405 | 408 | 413 | 415 | 429 | 499 | 500 | 503 | 504;

/**
 * An HTTP failure thrown anywhere in a route and turned into a JSON answer in one place
 * (`{error: {code, message, issues?}, request_id}`), so every route fails the same way. In the
 * error family its code is `RK_HTTP`; `apiCode` is the code the answer carries (`invalid_request`).
 */
export class ApiError extends RewardKitError {
  readonly status: ApiErrorStatus;
  readonly apiCode: string;
  readonly issues: readonly ApiIssue[] | undefined;
  /** Extra headers for the answer, e.g. `Retry-After` on 429. */
  readonly headers: Readonly<Record<string, string>>;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    status: ApiErrorStatus,
    code: string,
    message: string,
    extra: {
      issues?: readonly ApiIssue[];
      headers?: Record<string, string>;
      details?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super('RK_HTTP', message, {
      ...(extra.cause !== undefined && { cause: extra.cause }),
      isRetryable: status === 408 || status === 429 || status === 503 || status === 504,
    });
    this.name = 'ApiError';
    this.status = status;
    this.apiCode = code;
    this.issues = extra.issues;
    this.headers = extra.headers ?? {};
    this.details = extra.details;
  }
}

/** The HTTP status of a RewardKitError escaping a route: input problems are the client's, the rest ours. */
export function statusOfErrorCode(code: RewardKitErrorCode): ApiErrorStatus {
  switch (code) {
    case 'RK_INPUT_PARSE':
    case 'RK_INPUT_SCHEMA':
    case 'RK_INPUT_ENCODING':
    case 'RK_USAGE':
    case 'RK_INVALID_ARGUMENT':
      return 400;
    case 'RK_TIMEOUT':
      return 504;
    case 'RK_SANDBOX_UNAVAILABLE':
    case 'RK_STORE_UNAVAILABLE':
    case 'RK_BACKEND_UNAVAILABLE':
    case 'RK_BACKEND_FAILED':
      return 503;
    default:
      return 500;
  }
}
