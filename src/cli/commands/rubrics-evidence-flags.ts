import { type Command, InvalidArgumentError } from 'commander';
import { RewardKitError } from '../../core/index.js';
import type { RubricAuthoringOptions } from '../../judges/index.js';
import { positiveInt } from '../number-flags.js';

/** The evidence and consensus flags of `rubrics generate`. */
export interface EvidenceFlags {
  index?: string;
  retrieverUrl?: string;
  retrieverTimeout: number;
  evidenceK?: number;
  minSupport?: number;
}

const share = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1) {
    throw new InvalidArgumentError(`--min-support expects a number in [0, 1], got "${value}".`);
  }
  return n;
};

/** Adds evidence retrieval (an index or an HTTP retriever) and the consensus bar to `rubrics generate`. */
export function addEvidenceOptions(command: Command): Command {
  return command
    .option('--index <dir>', 'retrieve evidence from this BM25 index (rewardkit index build)')
    .option(
      '--retriever-url <url>',
      'retrieve evidence from an HTTP retriever: POST {queries, topk} -> {result: [[{document: {contents}, score}]]}',
    )
    .option(
      '--retriever-timeout <ms>',
      'per-request timeout of --retriever-url',
      positiveInt('--retriever-timeout'),
      10_000,
    )
    .option(
      '--evidence-k <k>',
      'passages retrieved per query (default 3; with --index or --retriever-url)',
      positiveInt('--evidence-k'),
    )
    .option(
      '--min-support <x>',
      'share of answers a key point needs to reach the writer, unless evidence supports it (0..1, default 0)',
      share,
    );
}

/** The authoring options the flags ask for; a bad combination is a usage error before any call. */
export async function evidenceOptions(
  flags: EvidenceFlags,
): Promise<Pick<RubricAuthoringOptions, 'evidence' | 'minSupport'>> {
  if (flags.index !== undefined && flags.retrieverUrl !== undefined) {
    throw new RewardKitError('RK_USAGE', 'give one of --index <dir> or --retriever-url <url>, not both');
  }
  const minSupport = flags.minSupport !== undefined ? { minSupport: flags.minSupport } : {};
  if (flags.index === undefined && flags.retrieverUrl === undefined) {
    if (flags.evidenceK !== undefined) {
      throw new RewardKitError(
        'RK_USAGE',
        '--evidence-k needs an evidence source: --index <dir> or --retriever-url <url>',
      );
    }
    return minSupport;
  }
  const { createBm25Retriever, createHttpRetriever, readBm25Index } = await import(
    '../../retrieval/index.js'
  );
  const retriever =
    flags.index !== undefined
      ? createBm25Retriever(readBm25Index(flags.index).index, flags.index)
      : createHttpRetriever({ url: flags.retrieverUrl as string, timeoutMs: flags.retrieverTimeout });
  return { evidence: { retriever, k: flags.evidenceK ?? 3 }, ...minSupport };
}
