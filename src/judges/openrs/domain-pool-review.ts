import { RewardKitError } from '../../core/index.js';
import { type ReviewStatus, ReviewStatusSchema } from '../rubric-authoring/review-status.js';
import { type DomainPool, parseDomainPool } from './domain-pool.js';

/** The first line of every pool review file: what it is and how to edit it. */
export const POOL_REVIEW_HEADER =
  '<!-- rewardkit domain pool review file, format 1. Edit the pool below (title, the line saying when it applies, "- [type] Name: description" criteria); set status to approved or rejected. -->';

/** A pool as a review file: the header, `status: pending`, then the pool's markdown as it stands. */
export function renderDomainPoolReview(poolMarkdown: string): string {
  return `${POOL_REVIEW_HEADER}\nstatus: pending\n\n${poolMarkdown.trimEnd()}\n`;
}

export type ParsedPoolReview =
  | { ok: true; status: ReviewStatus; pool: DomainPool; markdown: string }
  | { ok: false; status?: ReviewStatus; errors: string[] };

/**
 * Reads a pool review file strictly: the header line, a `status:` line of pending, approved or
 * rejected, then a pool that `parseDomainPool` accepts. Line numbers in errors are the review
 * file's own. A rejected file's pool is not read (the reviewer threw the edit away).
 */
export function parseDomainPoolReview(text: string, file: string): ParsedPoolReview {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== POOL_REVIEW_HEADER) {
    return {
      ok: false,
      errors: [`${file}:1: not a domain pool review file (its first line is the review header)`],
    };
  }
  const status = ReviewStatusSchema.safeParse(/^status:\s*(.*)$/.exec(lines[1]?.trim() ?? '')?.[1]?.trim());
  if (!status.success) {
    return {
      ok: false,
      errors: [`${file}:2: write "status: pending", "status: approved" or "status: rejected"`],
    };
  }
  if (status.data === 'rejected') return { ok: false, status: status.data, errors: [] };
  // Blanked, not cut, so the pool parser's line numbers stay the file's.
  const body = ['', '', ...lines.slice(2)].join('\n');
  try {
    return {
      ok: true,
      status: status.data,
      pool: parseDomainPool(body, file),
      markdown: `${lines.slice(2).join('\n').trim()}\n`,
    };
  } catch (error) {
    if (!(error instanceof RewardKitError)) throw error;
    return { ok: false, status: status.data, errors: error.message.split('\n').slice(1) };
  }
}

/** What a review changed in a pool, by criterion name. */
export interface PoolChanges {
  added: string[];
  removed: string[];
  edited: string[];
}

/** The criteria added, removed and edited (type, dimension or description) from `before` to `after`. */
export function domainPoolChanges(before: DomainPool, after: DomainPool): PoolChanges {
  const key = (c: DomainPool['criteria'][number]) => `${c.type}|${c.dimension ?? ''}|${c.description}`;
  const old = new Map(before.criteria.map((c) => [c.name, key(c)]));
  const now = new Map(after.criteria.map((c) => [c.name, key(c)]));
  return {
    added: [...now.keys()].filter((n) => !old.has(n)),
    removed: [...old.keys()].filter((n) => !now.has(n)),
    edited: [...now].filter(([n, k]) => old.has(n) && old.get(n) !== k).map(([n]) => n),
  };
}
