import { type Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { RewardKitError } from '../../core/index.js';
import { parseRow, readJsonlLines } from '../../dataset/index.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { requireJsonlInput } from './jsonl-command.js';

/** A reference row: one rollout's reward vector, or a group's vectors (null = a failed rollout, skipped). */
const ReferenceRowSchema = z.object({
  dims: z.union([
    z.array(z.number().finite()).min(1),
    z.array(z.array(z.number().finite()).min(1).nullable()).min(1),
  ]),
});

interface FitFlags {
  store?: string;
  stateKey: string;
  std: 'population' | 'unbiased';
  delta: number;
  replace: boolean;
}

const positiveNumber = (flag: string) => (value: string) => {
  const n = Number(value);
  if (!(n > 0) || !Number.isFinite(n))
    throw new InvalidArgumentError(`${flag} expects a positive number, got "${value}".`);
  return n;
};

/** Reads every reference vector; any malformed row stops the fit, since frozen statistics must not rest on part of the file. */
async function readReferenceVectors(input: string): Promise<{ vectors: number[][]; errors: string[] }> {
  const name = input === '-' ? '<stdin>' : input;
  const vectors: number[][] = [];
  const errors: string[] = [];
  let width: { size: number; line: number } | undefined;
  for await (const line of readJsonlLines(input === '-' ? process.stdin : input)) {
    if (line.text === undefined) {
      errors.push(`${name}:${line.line}: ${line.error}`);
      continue;
    }
    const parsed = parseRow(line.text, { file: name, line: line.line }, ReferenceRowSchema);
    if (!parsed.ok) {
      errors.push(...parsed.errors);
      continue;
    }
    const { dims } = parsed.value;
    const rows = typeof dims[0] === 'number' ? [dims as number[]] : (dims as (number[] | null)[]);
    for (const row of rows) {
      if (row === null) continue;
      width ??= { size: row.length, line: line.line };
      if (row.length !== width.size) {
        errors.push(
          `${name}:${line.line}: field "dims": ${row.length} dimensions, line ${width.line} has ${width.size}`,
        );
        break;
      }
      vectors.push(row);
    }
  }
  return { vectors, errors };
}

export function registerFitReferenceCommand(advantages: Command, state: CommandState): void {
  advantages
    .command('fit-reference')
    .description("Fit RFN's frozen reference statistics (mu, sigma per dimension) once, into the store.")
    // --input, --store and --state-key are the parent's: commander hands them to `advantages`.
    .configureHelp({ showGlobalOptions: true })
    .option('--std <kind>', 'population | unbiased', 'population')
    .option(
      '--delta <x>',
      'added to sigma so a constant dimension cannot divide by zero',
      positiveNumber('--delta'),
      1e-6,
    )
    .option('--replace', 'refit statistics already stored under this key (they are frozen otherwise)', false)
    .addHelpText(
      'after',
      `
Rows of --input: {"dims": [number, ...]} (one reference rollout) or {"dims": [[...] | null, ...]}
(a group; null entries are skipped). The statistics are stored as "rfn-reference/<state key>"
and printed as one JSON line; the rfn and tri_factor methods read them from there. They are
fitted once from the frozen reference policy's rollouts and never updated, so the policy's
progress shows as drift. A malformed row stops the fit (exit 3, every reason on stderr) and
nothing is stored.

Example:
  rewardkit advantages fit-reference --input ref.jsonl --state-key run-1`,
    )
    .action(async (_own: unknown, command: Command) => {
      const flags = command.optsWithGlobals<FitFlags & { input?: string }>();
      if (flags.input === undefined)
        throw new RewardKitError('RK_USAGE', 'fit-reference needs --input <file>');
      const input = flags.input;
      if (flags.std !== 'population' && flags.std !== 'unbiased')
        throw new RewardKitError('RK_USAGE', `--std is population or unbiased, got "${flags.std}"`);
      requireJsonlInput({ input });
      const { vectors, errors } = await readReferenceVectors(input);
      if (errors.length > 0) {
        for (const error of errors) process.stderr.write(`rewardkit: ${error}\n`);
        process.stderr.write(
          `rewardkit advantages fit-reference: ${errors.length} bad rows; nothing stored\n`,
        );
        state.exitCode = EXIT.rowsFailed;
        return;
      }
      if (vectors.length < (flags.std === 'unbiased' ? 2 : 1))
        throw new RewardKitError(
          'RK_USAGE',
          `${input}: ${vectors.length} reference rollouts, too few to fit`,
        );
      const { rfnReferenceKey, storeRfnReference } = await import('../../rl/rfn-reference-document.js');
      const { openStoreFromFlag } = await import('../store-location.js');
      const store = await openStoreFromFlag(flags.store);
      if (!store)
        throw new RewardKitError(
          'RK_USAGE',
          'fit-reference stores the statistics: it needs a store, not --store none',
        );
      try {
        const document = await storeRfnReference(store, flags.stateKey, vectors, {
          std: flags.std,
          delta: flags.delta,
          replace: flags.replace,
        });
        process.stdout.write(`${JSON.stringify({ key: rfnReferenceKey(flags.stateKey), ...document })}\n`);
      } finally {
        await store.close();
      }
    });
}
