import { RewardKitError, type Sample } from '../core/index.js';

/**
 * Every row of a samples file (`-`: stdin) as a Sample; a malformed row stops the run before any
 * scoring, named by file:line, so a command that re-scores samples (redteam, audit) never spends
 * calls on a file it would reject.
 */
export async function readSamples(input: string): Promise<Sample[]> {
  const { parseSampleRow, readJsonlLines } = await import('../dataset/index.js');
  const name = input === '-' ? '<stdin>' : input;
  const samples: Sample[] = [];
  const errors: string[] = [];
  for await (const line of readJsonlLines(input === '-' ? process.stdin : input)) {
    if (line.text === undefined) {
      errors.push(`${name}:${line.line}: ${line.error}`);
      continue;
    }
    const parsed = parseSampleRow(line.text, { file: name, line: line.line });
    if (parsed.ok) samples.push(parsed.sample);
    else errors.push(...parsed.errors);
  }
  if (errors.length > 0) throw new RewardKitError('RK_USAGE', `bad input rows:\n  ${errors.join('\n  ')}`);
  if (samples.length === 0) throw new RewardKitError('RK_USAGE', `no samples in ${name}`);
  return samples;
}
