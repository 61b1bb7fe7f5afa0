import { appendFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineKey, parseRow, readJsonlLines } from '../dataset/index.js';
import type { Retriever } from '../retrieval/index.js';
import { readResumeState } from '../runner/index.js';
import { ProblemPool, type VerifiedTask } from './problem-pool.js';
import { SspSeedRowSchema } from './seed-row.js';
import type { SspRecord } from './ssp-record.js';
import { runSspRound, type SspModels, type SspOptions, type SspSeed } from './ssp-round.js';

export interface SelfplayRunOptions extends SspOptions {
  /** JSONL seeds: `{id, answer, aliases?, searches?}`. */
  seedsFile: string;
  /** Gets `rewards.jsonl` (one record per seed and round) and `tasks.jsonl` (the problem pool). */
  outputDir: string;
  rounds: number;
  models: SspModels;
  retriever: Retriever;
  /** Skip seeds and rounds already in `rewards.jsonl` (default true); false starts over. */
  resume?: boolean;
  onRecord?: (record: SspRecord) => void;
  /**
   * Records not to write: seeds the run did not really play (the backend went down), which a rerun
   * must play instead of skipping. Counted in `unwritten`.
   */
  withhold?: (record: SspRecord) => boolean;
}

export interface SelfplaySummary {
  seeds: number;
  rounds: number;
  verified: number;
  rejected: number;
  /** Records with no reward (backend or retriever failures), plus unreadable seed rows. */
  failed: number;
  skipped: number;
  /** Records withheld (`withhold`): not written, so a rerun plays them. */
  unwritten: number;
  /** Distinct verified questions in `tasks.jsonl`, this run's and earlier runs'. */
  pool: number;
  meanProposerReward: number | null;
  meanSolveRate: number | null;
  warnings: string[];
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

async function readSeeds(file: string) {
  const seeds: SspSeed[] = [];
  const failed: Array<{ id: string; errors: string[] }> = [];
  const seen = new Set<string>();
  for await (const row of readJsonlLines(file)) {
    const origin = { file, line: row.line };
    if (row.error !== undefined) {
      failed.push({ id: lineKey(origin), errors: [`${file}:${row.line}: ${row.error}`] });
      continue;
    }
    const parsed = parseRow(row.text, origin, SspSeedRowSchema);
    if (!parsed.ok) failed.push({ id: parsed.id, errors: parsed.errors });
    else if (seen.has(parsed.value.id))
      failed.push({
        id: parsed.value.id,
        errors: [`${file}:${row.line}: field "id": "${parsed.value.id}" appears earlier in the seeds`],
      });
    else {
      seen.add(parsed.value.id);
      seeds.push(parsed.value);
    }
  }
  return { seeds, failed };
}

/**
 * Search self-play over a seeds file for `rounds` rounds, appending each seed's record to
 * `rewards.jsonl` as soon as it is final and each new verified question to `tasks.jsonl`. A rerun
 * resumes: records already written (by id `round:seed`) are skipped, a torn last line is cut off,
 * and the pool is reloaded so no question enters it twice. A seed row that cannot be read is
 * written once as a failed record (`seed:<id>`), never dropped.
 */
export async function runSelfplay(options: SelfplayRunOptions): Promise<SelfplaySummary> {
  mkdirSync(options.outputDir, { recursive: true });
  const rewardsFile = join(options.outputDir, 'rewards.jsonl');
  const tasksFile = join(options.outputDir, 'tasks.jsonl');
  if (options.resume === false) {
    writeFileSync(rewardsFile, '');
    writeFileSync(tasksFile, '');
  }
  const { done, warnings } = await readResumeState(rewardsFile);
  const pool = new ProblemPool();
  warnings.push(...(await readResumeState(tasksFile)).warnings);
  if (existsSync(tasksFile)) {
    for await (const row of readJsonlLines(tasksFile)) {
      if (row.text === undefined) continue;
      try {
        pool.add(JSON.parse(row.text) as VerifiedTask);
      } catch {
        warnings.push(`${tasksFile}:${row.line}: not valid JSON; left out of the problem pool`);
      }
    }
  }
  const { seeds, failed: badSeeds } = await readSeeds(options.seedsFile);
  const summary: SelfplaySummary = {
    seeds: seeds.length,
    rounds: options.rounds,
    verified: 0,
    rejected: 0,
    failed: badSeeds.length,
    skipped: 0,
    unwritten: 0,
    pool: 0,
    meanProposerReward: null,
    meanSolveRate: null,
    warnings,
  };
  for (const bad of badSeeds) {
    const id = `seed:${bad.id}`;
    if (!done.has(id)) appendFileSync(rewardsFile, line({ id, status: 'failed', errors: bad.errors }));
  }
  const proposerRewards: number[] = [];
  const solveRates: number[] = [];
  for (let round = 1; round <= options.rounds; round++) {
    const todo = seeds.filter((seed) => !done.has(`${round}:${seed.id}`));
    summary.skipped += seeds.length - todo.length;
    if (todo.length === 0) continue;
    await runSspRound(todo, round, options.models, options.retriever, options, (record) => {
      if (options.withhold?.(record)) {
        summary.unwritten++;
        return;
      }
      if (record.status === 'verified' && record.question !== null) {
        const task: VerifiedTask = {
          id: record.id,
          round,
          seed_id: record.seed_id,
          question: record.question,
          answer: record.answer,
          golds: record.golds,
          searches: record.proposer.searches,
          solve_rate: record.solve_rate,
        };
        if (pool.add(task)) appendFileSync(tasksFile, line(task));
        else record.warnings.push('the question is already in the problem pool; it was not added again');
      }
      appendFileSync(rewardsFile, line(record));
      summary[record.status]++;
      if (record.proposer_reward !== null) proposerRewards.push(record.proposer_reward);
      if (record.solve_rate !== null) solveRates.push(record.solve_rate);
      options.onRecord?.(record);
    });
  }
  const mean = (xs: number[]) => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
  summary.pool = pool.size;
  summary.meanProposerReward = mean(proposerRewards);
  summary.meanSolveRate = mean(solveRates);
  return summary;
}
