import { Command } from 'commander';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { addDeprecatedAlias, addDeprecatedCommand } from './deprecated-command.js';

/** Runs `argv` through a `judge` group and returns what went to stderr and which actions ran. */
async function run(argv: string[], build: (judge: Command, ran: string[]) => void) {
  const stderr: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    stderr.push(String(chunk));
    return true;
  });
  const ran: string[] = [];
  const program = new Command('rewardkit').exitOverride();
  build(program.command('judge'), ran);
  await program.parseAsync(argv, { from: 'user' });
  return { stderr: stderr.join(''), ran };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('addDeprecatedCommand', () => {
  const build = (judge: Command, ran: string[]) => {
    addDeprecatedCommand(judge, {
      name: 'pointwise',
      replacement: 'judge medical_rubric --bench-rows',
      description: 'QuarkMedBench rows',
    })
      .option('-x <n>')
      .action((flags: { x?: string }) => {
        ran.push(`pointwise ${flags.x}`);
      });
  };

  test('should run the old command as before, after one deprecation line naming the new one', async () => {
    const { stderr, ran } = await run(['judge', 'pointwise', '-x', '3'], build);
    expect(ran).toEqual(['pointwise 3']);
    expect(stderr).toBe(
      'rewardkit: warning: judge pointwise is deprecated; use judge medical_rubric --bench-rows\n',
    );
  });

  test('should mark the old command in its group --help', () => {
    const judge = new Command('judge');
    build(judge, []);
    // The list wraps its descriptions at the terminal's width.
    expect(judge.helpInformation().replace(/\s+/g, ' ')).toContain(
      'pointwise [options] (deprecated: use judge medical_rubric --bench-rows) QuarkMedBench rows',
    );
  });
});

describe('addDeprecatedAlias', () => {
  const build = (judge: Command, ran: string[]) => {
    addDeprecatedAlias(
      judge.command('medical_rubric').action(() => {
        ran.push('medical_rubric');
      }),
      'medical-rubric',
    );
  };

  test.each([
    ['medical-rubric', 'rewardkit: warning: judge medical-rubric is deprecated; use judge medical_rubric\n'],
    ['medical_rubric', ''],
  ])('should run judge %s, warning only under the old spelling', async (name, warning) => {
    const { stderr, ran } = await run(['judge', name], build);
    expect(ran).toEqual(['medical_rubric']);
    expect(stderr).toBe(warning);
  });
});
