import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { bubblewrapWorks } from '../src/verify/code/python-runner.js';
import { runCli, tempDir } from './cli-harness.js';
import { postJson, type ServeProcess, startServe } from './serve-harness.js';

let serving: ServeProcess | undefined;
afterEach(async () => {
  await serving?.stop('SIGKILL');
  serving = undefined;
});

/** SandboxFusion's `/run_code` contract as its clients meet it through `rewardkit serve`. */
describe('rewardkit serve: SandboxFusion parity of /run_code', () => {
  test("should answer an invalid body with FastAPI's 422 and keep 400 on the native routes", async () => {
    serving = await startServe(['--spec', 'math']);
    const bad = await postJson(`${serving.url}/run_code`, { language: 'python' });
    expect(bad.status).toBe(422);
    expect(bad.json()).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'code'], msg: 'Field required' }],
    });
    const broken = await postJson(`${serving.url}/run_code`, '{"code": "x",');
    expect(broken.status).toBe(422);
    expect(broken.json()).toMatchObject({ detail: [{ type: 'json_invalid', loc: ['body', 13] }] });
    const native = await postJson(`${serving.url}/v1/rewards`, { samples: [{ id: 'a' }] });
    expect(native.status).toBe(400);
    expect(native.json()).toMatchObject({ error: { code: 'invalid_request' } });
    const metrics = await (await fetch(`${serving.url}/metrics`)).text();
    expect(metrics).toContain('rewardkit_http_requests_total{route="/run_code",status="422"} 2');
  });

  test.skipIf(!bubblewrapWorks())(
    'should run a program that serves on localhost, fetch an absolute path, and name the executor',
    async () => {
      const folder = tempDir();
      chmodSync(folder, 0o755);
      mkdirSync(join(folder, 'node_modules', 'shout'), { recursive: true });
      writeFileSync(
        join(folder, 'node_modules', 'shout', 'index.js'),
        'module.exports = (s) => s.toUpperCase();\n',
      );
      serving = await startServe(['--spec', 'math', '--sandbox-node-path', folder], { MY_POD_NAME: '' });
      const res = await postJson(`${serving.url}/run_code`, {
        language: 'nodejs',
        code: `const http = require('http'); const fs = require('fs'); const shout = require('shout');
const s = http.createServer((q, r) => r.end(shout('pong')));
s.listen(0, 'localhost', () => http.get({ host: 'localhost', port: s.address().port }, (r) => {
  let d = ''; r.on('data', (c) => (d += c)); r.on('end', () => { fs.writeFileSync('/mnt/answer', d); console.log(d); s.close(); });
}));`,
        fetch_files: ['/mnt/answer'],
      });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'Success',
        run_result: { stdout: 'PONG\n' },
        files: { '/mnt/answer': Buffer.from('PONG').toString('base64') },
        executor_pod_name: hostname(),
      });
    },
  );

  test('should refuse a Node modules folder that is not there before listening, by flag or environment', async () => {
    const missing = join(tempDir(), 'nowhere');
    const byFlag = await runCli(['serve', '--port', '0', '--sandbox-node-path', missing]);
    expect(byFlag.code).toBe(2);
    expect(byFlag.stderr).toMatch(/--sandbox-node-path .*nowhere: not found/);
    const byEnv = await runCli(['serve', '--port', '0'], { env: { REWARDKIT_SANDBOX_NODE_PATH: missing } });
    expect(byEnv.code).toBe(2);
    expect(byEnv.stderr).toMatch(/--sandbox-node-path: ".*nowhere" is not a folder/);
  });
});
