import type { RewardResult } from '../core/index.js';
import type { AnalysisSummary } from '../store/analysis-summary.js';
import type { SampleText } from '../store/index.js';
import { refuseParquetOutput } from './dataset-input-flags.js';
import type { JsonlRowsSummary } from './map-jsonl-rows.js';
import { type OutputLine, storeJsonlOutput } from './store-jsonl-output.js';
import { openStoredRowsRun } from './stored-rows-run.js';

/** A row command's stored run (`judge pairwise`, a judge's `--bench-rows`), fed as it writes. */
export interface StoredJsonlRun {
  readonly id: string;
  /** For `runJsonlCommand`'s `onWritten`: keeps each written line as a result. */
  readonly onWritten: (line: OutputLine) => Promise<void>;
  /**
   * Stores the output's lines the run lacks (a resumed run's earlier sessions), then ends the run
   * with its summary, made once every line of the output (or, printed, of this session) is tallied.
   */
  finish(rows: JsonlRowsSummary, summary: () => AnalysisSummary): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens the run of a row command in the store `--store` names (none with `--store none`):
 * resumed with its output file as `score` resumes, each line stored as a result by `resultOf`
 * (with the texts it judged where the command has them), every line handed to `tally`.
 */
export async function openStoredJsonlRun(
  flags: { input: string; output?: string; resume: boolean; store?: string },
  run: {
    /** The command, as its messages name it (`judge pairwise`). */
    readonly command: string;
    readonly spec_name: string;
    readonly spec: unknown;
    readonly kind: string;
    readonly resultOf: (line: OutputLine) => { result: RewardResult; text?: SampleText };
    readonly tally: (line: OutputLine) => void;
  },
): Promise<StoredJsonlRun | undefined> {
  // Refused before the run is made, so a refused command leaves no run behind.
  refuseParquetOutput(`rewardkit ${run.command}`, flags.output);
  const output = flags.output !== undefined && flags.output !== '-' ? flags.output : undefined;
  const stored = await openStoredRowsRun(
    flags.store,
    {
      spec_name: run.spec_name,
      spec: run.spec,
      input: flags.input === '-' ? '<stdin>' : flags.input,
      ...(output !== undefined && { output }),
    },
    { resume: flags.resume, kind: run.kind },
  );
  if (!stored) return undefined;
  return {
    id: stored.id,
    async onWritten(line) {
      // Printed lines are tallied as they go; a file's are tallied from the file at the end.
      if (output === undefined) run.tally(line);
      const { result, text } = run.resultOf(line);
      await stored.save(result, text);
    },
    async finish(rows, summary) {
      const outputRows =
        output === undefined
          ? rows.ok + rows.failed
          : await storeJsonlOutput(stored, output, (line) => run.resultOf(line).result, run.tally);
      await stored.finish(summary(), {
        interrupted: rows.interrupted,
        outputRows,
        outputName: output ?? '<stdout>',
      });
    },
    close: () => stored.close(),
  };
}
