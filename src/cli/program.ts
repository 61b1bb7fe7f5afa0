import { Command, Help } from 'commander';
import { checkPathFlags } from './check-path-flags.js';
import type { CommandState } from './command-state.js';
import { TOP_LEVEL_COMMANDS } from './top-level-commands.js';

const EPILOG = `
Exit codes: 0 done; 1 could not run (bad spec); 2 bad flags or paths (missing file, folder);
            3 ran, but some rows failed (each is in the output with its reason);
            4 stopped: the backend is down (--max-consecutive-failures; resumable); 130 interrupted.

Quick start:
  rewardkit score --input examples/mixed.jsonl --output scored.jsonl
  rewardkit verify math --input pairs.jsonl
  rewardkit presets math

Docs: README.md and docs/ in the package.`;

/**
 * Builds the command tree for one command line. Commands are thin: they parse flags, call a module,
 * print. Only the command that `argv` names is loaded; the others are listed by name and summary.
 */
export async function createProgram(
  argv: readonly string[],
  state: CommandState = { exitCode: 0 },
): Promise<Command> {
  const program = new Command('rewardkit')
    .description(
      'The reward layer of LLM post-training: verifiers and reward specs over JSONL, with every result stored.',
    )
    .version(process.env.npm_package_version ?? '0.1.0', '-v, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride()
    .addHelpText('after', EPILOG);
  program.configureOutput({
    outputError: (text, write) => write(`rewardkit: ${text.replace(/^error: /, '')}`),
  });
  const unloadedTerms = new Map<Command, string>();
  const defaultHelp = new Help();
  program.configureHelp({
    // Every alias in the tree is an old spelling kept working (deprecated-command.ts): the list
    // names each command once, by the name to use.
    subcommandTerm: (command) =>
      unloadedTerms.get(command) ?? defaultHelp.subcommandTerm(command).replace(/^([^\s|]+)\|\S+/, '$1'),
  });
  const named = commandName(argv);
  for (const entry of TOP_LEVEL_COMMANDS) {
    const command = program.command(entry.name).description(entry.description);
    if (entry.name === named) (await entry.load())(command, state);
    else unloadedTerms.set(command, entry.term);
  }
  overrideExitEverywhere(program);
  // Every path a command line gives is checked before any command starts work (see check-path-flags.ts).
  program.hook('preAction', (_program, action) => checkPathFlags(action));
  return program;
}

/** The top-level command `argv` runs or asks help for; the program itself has no option that takes a value. */
function commandName(argv: readonly string[]): string | undefined {
  const [first, second] = argv.filter((arg) => !arg.startsWith('-'));
  return first === 'help' ? second : first;
}

/** Commander exits the process by default; we want errors back in `runCli` for every subcommand. */
function overrideExitEverywhere(command: Command): void {
  command.exitOverride();
  for (const sub of command.commands) overrideExitEverywhere(sub);
}
