import type { Context } from 'hono';
import { type CodeSandbox, RunCodeRequestSchema, type RunCodeResult } from '../../verify/code/index.js';
import { ApiError } from '../api-error.js';
import { readJsonBody } from '../read-json-body.js';
import type { RewardService } from '../reward-service.js';
import type { ServerApp } from '../server-env.js';

const sandboxError = (message: string): RunCodeResult => ({
  status: 'SandboxError',
  message,
  compile_result: null,
  run_result: null,
  executor_pod_name: null,
  files: {},
});

/**
 * `POST /run_code`: SandboxFusion's contract, answered by rewardkit's sandboxes (QuickJS for
 * JavaScript, CPython under bubblewrap for Python), so verl's sandbox integration works unchanged.
 * Runs share the work queue with scoring; a language the sandboxes do not have is a
 * `SandboxError` answer with HTTP 200, as SandboxFusion answers it.
 */
export function registerRunCodeRoute(
  app: ServerApp,
  service: RewardService,
  sandbox: () => CodeSandbox,
): void {
  app.post('/run_code', async (c: Context) => {
    const body = await readJsonBody(c, RunCodeRequestSchema);
    const [run] = service.queue.submit([() => sandbox().runCode(body)], c.req.raw.signal);
    let result: RunCodeResult;
    try {
      result = await (run as Promise<RunCodeResult>);
    } catch (error) {
      if (c.req.raw.signal.aborted) {
        service.metrics.countFailure('disconnect');
        throw new ApiError(
          499,
          'client_closed_request',
          'the client closed the connection before the answer',
        );
      }
      result = sandboxError((error as Error).message);
    }
    if (result.status === 'SandboxError') service.metrics.countFailure('sandbox');
    return c.json(result);
  });
}
