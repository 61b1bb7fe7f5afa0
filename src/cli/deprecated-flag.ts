import { type Command, Option } from 'commander';
import { RewardKitError } from '../core/index.js';

/** An old flag name kept working after its option was renamed to the param's name. */
export interface DeprecatedFlag {
  /** The old flag as commander writes it: `--aggregate <name>`, `--one-order`. */
  readonly flags: string;
  /** The flag or flags to use instead, for the warning. */
  readonly replacement: string;
  /** The new options' attribute values the old flag's value stands for; throws to refuse the value. */
  readonly apply: (value: string | true) => ReadonlyArray<readonly [attribute: string, value: unknown]>;
}

/**
 * Keeps an old flag name working, hidden from `--help`: it sets the renamed options as though
 * they had been given, and prints one deprecation line naming the new flag. A value the new flags
 * would refuse is refused naming the old flag.
 */
export function addDeprecatedFlag(command: Command, deprecated: DeprecatedFlag): Command {
  const option = new Option(deprecated.flags).hideHelp();
  command.addOption(option);
  command.on(`option:${option.name()}`, (value: string | true) => {
    process.stderr.write(`rewardkit: warning: ${option.long} is deprecated; use ${deprecated.replacement}\n`);
    let values: ReturnType<DeprecatedFlag['apply']>;
    try {
      values = deprecated.apply(value);
    } catch (error) {
      throw new RewardKitError('RK_USAGE', `${option.long} ${(error as Error).message}`);
    }
    for (const [attribute, v] of values) command.setOptionValueWithSource(attribute, v, 'cli');
  });
  return command;
}
