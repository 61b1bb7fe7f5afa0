import { ChatModelError } from './chat-model.js';

/**
 * The circuit breaker is open: the last `failures` calls in a row failed in a way another try
 * could have fixed (a refused connection, a timeout, a 5xx after the retries), so the backend is
 * taken to be down. Every call after that fails with this error at once, without a request.
 */
export class BackendDownError extends ChatModelError {
  constructor(
    /** The model whose call opened the breaker. */
    readonly model: string,
    /** Where its last call went (password masked), where the backend said. */
    readonly backend: string | undefined,
    readonly failures: number,
    /** The last call's own reason, without the endpoint in front. */
    readonly lastError: string,
  ) {
    super(
      `the backend is down: ${failures} calls in a row failed, the last to model "${model}"${backend === undefined ? '' : ` at ${backend}`}: ${lastError}`,
      [lastError],
      { isRetryable: false, ...(backend !== undefined && { endpoint: backend }) },
    );
    this.name = 'BackendDownError';
  }
}
