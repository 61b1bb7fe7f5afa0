import { Command, CommanderError } from 'commander';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { RewardKitError } from '../core/index.js';
import { checkProperty } from '../core/test-utils/check-property.js';
import { FORMAT_PRESET_NAMES } from '../dataset/index.js';
import { isJudgeKind, type JudgeKind, sourceKinds } from '../spec/index.js';
import { addDatasetInputOptions, type DatasetInputFlags, datasetMappings } from './dataset-input-flags.js';
import { addParamFlags, paramFlags, paramsFromFlags } from './params-flags.js';

const judgeKinds = [...sourceKinds.values()].filter(isJudgeKind) as JudgeKind[];

/** The command parsed quietly, throwing commander's errors instead of exiting. */
const quiet = (command: Command) =>
  command.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });

/** What a user error may look like: commander's (a bad value, a missing argument) or RK_USAGE naming the flag. */
function expectUsageError(error: unknown, flag: RegExp): void {
  if (error instanceof CommanderError) {
    expect(error.code).toMatch(
      /^commander\.(invalidArgument|optionMissingArgument|unknownOption|excessArguments)$/,
    );
    return;
  }
  expect(RewardKitError.isInstance(error), String((error as Error)?.stack)).toBe(true);
  expect(error).toMatchObject({ code: 'RK_USAGE', message: expect.stringMatching(flag) });
}

const value = fc.oneof(
  fc.string({ maxLength: 12, unit: 'binary' }),
  fc.constantFrom('0', '-1', '1.5', '1e400', 'NaN', '', ' ', 'true', '{}', '[]', 'null', '{"a":1}', '--x'),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
);

describe('command-line flags (property-based)', () => {
  test('should read any --map and --format values into mappings or a usage error naming the flag', async () => {
    const mapText = fc.oneof(
      value,
      fc
        .tuple(fc.constantFrom('id', 'response', 'reference', 'metadata.x', '__proto__', 'a b'), value)
        .map(([target, source]) => `${target}=${source}`),
    );
    await checkProperty(
      '--map and --format flags',
      fc.property(
        fc.array(mapText, { maxLength: 4 }),
        fc.option(fc.oneof(fc.constantFrom(...FORMAT_PRESET_NAMES), value), { nil: undefined }),
        (maps, format) => {
          const command = quiet(addDatasetInputOptions(new Command('score')));
          const argv = [
            ...maps.flatMap((m) => ['--map', m]),
            ...(format === undefined ? [] : ['--format', format]),
          ];
          try {
            command.parse(argv, { from: 'user' });
            const mappings = datasetMappings(command.opts<DatasetInputFlags>());
            for (const mapping of mappings) expect(mapping.sources.length).toBeGreaterThan(0);
          } catch (error) {
            expectUsageError(error, /--map|--format/);
          }
        },
      ),
      1500,
    );
  });

  test("should read any values of a judge kind's param flags into params or a usage error naming a flag", async () => {
    const kindFlags = judgeKinds.map((kind) => ({
      kind,
      flags: paramFlags(kind.params, new Set(['--input'])),
    }));
    const invocation = fc.constantFrom(...kindFlags).chain(({ kind, flags }) =>
      fc.record({
        kind: fc.constant(kind),
        args: fc.array(
          fc
            .tuple(fc.constantFrom(...flags), value)
            .map(([flag, v]) => (flag.kind === 'switch' ? [flag.flag] : [flag.flag, v])),
          { maxLength: 4 },
        ),
      }),
    );
    await checkProperty(
      'judge param flags',
      fc.property(invocation, ({ kind, args }) => {
        const flags = paramFlags(kind.params, new Set(['--input']));
        const command = quiet(addParamFlags(new Command(kind.kind), flags));
        try {
          command.parse(args.flat(), { from: 'user' });
          const params = paramsFromFlags(kind.params, flags, command);
          // Params the flags give are the params the spec source would take.
          expect(kind.params.safeParse(params).success).toBe(true);
        } catch (error) {
          expectUsageError(error, /--/);
        }
      }),
      1500,
    );
  });
});
