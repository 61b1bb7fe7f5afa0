import type { Context } from 'hono';
import {
  type CodeSandbox,
  type ParsedRunCodeRequest,
  RunCodeRequestSchema,
  type RunCodeResult,
} from '../../verify/code/index.js';
import { ApiError } from '../api-error.js';
import { clientSignal } from '../client-signal.js';
import { fastApiValidationError, jsonInvalid } from '../fastapi-validation-error.js';
import { readRequestBody } from '../read-request-body.js';
import { DEADLINE_HEADER, requestDeadline } from '../request-deadline.js';
import type { RewardService } from '../reward-service.js';
import type { ServerApp } from '../server-env.js';
import type { RunCodeServerLimits } from '../server-options.js';

/** The header that names the request fields the server lowered to its limits. */
export const CAPPED_HEADER = 'X-RewardKit-Capped';

/**
 * `POST /run_code`: SandboxFusion's contract (verl's sandbox integration works unchanged),
 * answered by rewardkit's sandboxes. Runs share the work queue with scoring. Faults of the sandbox
 * and languages it cannot run are `SandboxError` answers with HTTP 200, as SandboxFusion answers
 * them; a body that is not a SandboxFusion request is a 422 in FastAPI's shape
 * (`{"detail": [{"type", "loc", "msg"}]}`), as upstream answers it.
 *
 * The server's limits cap the request's timeouts and memory; the request's deadline (the server's
 * `--deadline`, lowered by `X-Deadline-Ms`) bounds the wait for a worker and the run, and the
 * sandbox is killed when the deadline passes or the client goes away.
 */
export function registerRunCodeRoute(
  app: ServerApp,
  service: RewardService,
  sandbox: () => CodeSandbox,
  limits: RunCodeServerLimits,
): void {
  app.post('/run_code', async (c: Context) => {
    const deadline = requestDeadline(service.deadlineMs, c.req.header(DEADLINE_HEADER));
    const text = await readRequestBody(c, service.body, deadline);
    let body: unknown;
    try {
      // FastAPI reads an empty body as no body at all.
      body = text === '' ? undefined : JSON.parse(text);
    } catch (error) {
      return c.json(jsonInvalid(error as Error, text), 422);
    }
    const parsed = RunCodeRequestSchema.safeParse(body);
    if (!parsed.success) return c.json(fastApiValidationError(parsed.error, body), 422);
    const asked = parsed.data;
    const { request, capped } = capToServerLimits(asked, limits);
    const deadlineMs = deadline.ms;
    const stop = new AbortController();
    const disconnected = () => stop.abort('disconnect');
    const client = clientSignal(c);
    client.addEventListener('abort', disconnected, { once: true });
    if (client.aborted) disconnected();
    const timer = setTimeout(() => stop.abort('deadline'), Math.max(0, deadline.remainingMs()));
    let started = false;
    let result: RunCodeResult;
    try {
      const [run] = service.queue.submit(
        [
          (signal) => {
            started = true;
            return sandbox().runCode(request, signal);
          },
        ],
        stop.signal,
        limits.whenFull,
      );
      result = await (run as Promise<RunCodeResult>);
    } catch (error) {
      if (stop.signal.reason === 'disconnect') {
        service.metrics.countFailure('disconnect');
        throw new ApiError(
          499,
          'client_closed_request',
          'the client closed the connection before the answer',
        );
      }
      if (stop.signal.reason === 'deadline') {
        service.metrics.countFailure('deadline');
        throw new ApiError(
          504,
          started ? 'deadline_exceeded' : 'queue_timeout',
          started
            ? `request deadline of ${deadlineMs} ms exceeded while the code ran; the sandbox was killed`
            : `no sandbox worker became free within the request deadline of ${deadlineMs} ms (${service.queue.inFlight()} running, ${service.queue.depth()} waiting): retry later`,
        );
      }
      throw error;
    } finally {
      clearTimeout(timer);
      client.removeEventListener('abort', disconnected);
    }
    if (result.status === 'SandboxError') service.metrics.countFailure('sandbox');
    if (capped.length > 0) c.header(CAPPED_HEADER, capped.join(', '));
    return c.json({ ...result, executor_pod_name: limits.executorName ?? result.executor_pod_name });
  });
}

/** The request with its timeouts and memory lowered to the server's limits, and what was lowered. */
export function capToServerLimits(
  request: ParsedRunCodeRequest,
  limits: RunCodeServerLimits,
): { request: ParsedRunCodeRequest; capped: string[] } {
  const capped: string[] = [];
  const cap = (field: keyof ParsedRunCodeRequest & string, value: number, max: number) => {
    if (value <= max) return value;
    capped.push(`${field}=${value}->${max}`);
    return max;
  };
  return {
    request: {
      ...request,
      run_timeout: cap('run_timeout', request.run_timeout, limits.maxRunTimeoutS),
      compile_timeout: cap('compile_timeout', request.compile_timeout, limits.maxCompileTimeoutS),
      // ≤ 0 asks for the sandbox's default limit, which the server configures; it is not raised here.
      memory_limit_MB: cap('memory_limit_MB', request.memory_limit_MB, limits.maxMemoryMb),
    },
    capped,
  };
}
