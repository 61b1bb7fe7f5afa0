import type { Command } from 'commander';

/** A command kept under its old name after its concept got one door. */
export interface DeprecatedCommand {
  /** The old name under the parent: `pointwise` in `judge pointwise`. */
  readonly name: string;
  /** The command line to use instead, for the warning and `--help`: `judge medical_rubric --bench-rows`. */
  readonly replacement: string;
  /** What the command does, as its `--help` line said before. */
  readonly description: string;
}

/**
 * Adds a command that keeps an old name working as it did (same flags, same output): its line in
 * `--help` starts "(deprecated: use …)", and each run prints one deprecation line naming the
 * command to use, in the style of a deprecated flag's (see deprecated-flag.ts).
 */
export function addDeprecatedCommand(parent: Command, deprecated: DeprecatedCommand): Command {
  const path = `${parent.name()} ${deprecated.name}`;
  return parent
    .command(deprecated.name)
    .description(`(deprecated: use ${deprecated.replacement}) ${deprecated.description}`)
    .hook('preAction', () => {
      process.stderr.write(`rewardkit: warning: ${path} is deprecated; use ${deprecated.replacement}\n`);
    });
}

/**
 * Keeps another spelling of a command working (`judge medical-rubric` for `judge medical_rubric`):
 * left out of the parent's `--help` list (see program.ts), with one deprecation line when a
 * command line uses it.
 */
export function addDeprecatedAlias(command: Command, alias: string): Command {
  return command.alias(alias).hook('preAction', () => {
    const parent = command.parent;
    // The parent's first operand is the name the command line used for its subcommand.
    if (parent?.args[0] !== alias) return;
    process.stderr.write(
      `rewardkit: warning: ${parent.name()} ${alias} is deprecated; use ${parent.name()} ${command.name()}\n`,
    );
  });
}
