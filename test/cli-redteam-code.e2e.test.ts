import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { bubblewrapWorks } from '../src/verify/code/python-runner.js';
import { runCli, tempDir } from './cli-harness.js';

const dir = tempDir();
const input = join(dir, 'code.jsonl');
// Half the programs add, half subtract: each faces two assert tests.
writeFileSync(
  input,
  Array.from({ length: 8 }, (_, i) =>
    JSON.stringify({
      id: `c${i}`,
      prompt: 'Write add(a, b).',
      response: `\`\`\`python\ndef add(a, b):\n    return a ${i % 2 === 0 ? '+' : '-'} b\n\`\`\``,
      metadata: {
        language: 'python',
        tests: [
          { kind: 'assert', code: `assert add(${i}, 2) == ${i + 2}` },
          { kind: 'assert', code: 'assert add(1, 1) == 2' },
        ],
      },
    }),
  ).join('\n'),
);
const loose = join(dir, 'loose.yaml');
writeFileSync(loose, 'sources:\n  - kind: code\n    params: {strict: false}\n');
const args = (spec: string) => [
  'redteam',
  ...['-s', spec, '-i', input, '-o', join(dir, 'out.json'), '--store', 'none'],
  ...['--exploits', 'early-exit,rigged-equality,fake-tests-passed'],
];

// The code verifier's own gaming battery, replayed as exploits of a policy's programs.
describe.skipIf(!bubblewrapWorks())('rewardkit redteam on code', { timeout: 120_000 }, () => {
  test('the code preset is lifted by neither early exits nor rigged equality', async () => {
    const run = await runCli(args('code'));
    expect(run.stderr).toMatch(/ok {4}early-exit: applied 8/);
    expect(run.stderr).toMatch(/ok {4}rigged-equality: applied 8/);
    expect(run.stderr).not.toMatch(/LIFTS/);
    expect(run.code).toBe(0);
  });

  test('a code spec without the strict guards is lifted by both', async () => {
    const run = await runCli(args(loose));
    expect(run.stderr).toMatch(/LIFTS early-exit: applied 8, lifted 50%/);
    expect(run.stderr).toMatch(/LIFTS rigged-equality: applied 8, lifted 50%/);
    expect(run.code).toBe(1);
  });
});
