import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RewardKitError } from '../../core/index.js';
import {
  DEFAULT_DOMAINS_DIR,
  domainPoolChanges,
  loadDomainPools,
  type PoolChanges,
  parseDomainPool,
  parseDomainPoolReview,
  renderDomainPoolReview,
} from '../../judges/openrs/index.js';

const INDEX = 'index.md';
/** The pools as exported, kept beside the review files so an import can say what the review changed. */
const ORIGINALS = '.original';

const refuseMarkdown = (dir: string, force: boolean) => {
  if (existsSync(dir) && !force && readdirSync(dir).some((n) => n.endsWith('.md'))) {
    throw new RewardKitError(
      'RK_USAGE',
      `${dir} already holds markdown files: choose an empty directory or pass --force`,
    );
  }
};

/** One review file per pool of `domains` (validated first), the originals, and an index. */
export function exportDomainPools(domains: string | undefined, out: string, force: boolean): string[] {
  const dir = domains ?? DEFAULT_DOMAINS_DIR;
  const pools = loadDomainPools(dir);
  refuseMarkdown(out, force);
  mkdirSync(join(out, ORIGINALS), { recursive: true });
  for (const pool of pools.values()) {
    const text = readFileSync(pool.file, 'utf8');
    writeFileSync(join(out, `${pool.id}.md`), renderDomainPoolReview(text));
    writeFileSync(join(out, ORIGINALS, `${pool.id}.md`), text);
  }
  writeFileSync(
    join(out, INDEX),
    [
      '# Domain pools for review',
      '',
      `Exported from ${dir}. Edit each pool file, set its \`status\` to \`approved\` (apply the edit) or`,
      '`rejected` (keep the pool as exported); then run',
      '`rewardkit rubrics import-pools <this directory> --out <new pool folder>`.',
      '',
      ...[...pools.values()].map(
        (p) => `- [${p.id}](${p.id}.md) — ${p.title}: ${p.criteria.length} criteria`,
      ),
      '',
    ].join('\n'),
  );
  return [...pools.keys()];
}

export interface PoolImportReport {
  approved: Array<{ id: string; changes: PoolChanges }>;
  rejected: string[];
  pending: string[];
  errors: string[];
  written: number;
}

/**
 * Reads a reviewed pool folder back. Every file is parsed strictly first; with any error nothing
 * is written. Then approved pools are written as reviewed, and rejected and pending ones as they
 * were exported (their edits not applied; pending ones applied with `includePending`), so `out`
 * is a whole pool folder that `--domains` takes.
 */
export function importDomainPools(
  dir: string,
  out: string,
  includePending: boolean,
  force: boolean,
): PoolImportReport {
  if (!existsSync(dir)) throw new RewardKitError('RK_USAGE', `Review directory not found: ${dir}`);
  const names = readdirSync(dir)
    .filter((n) => n.endsWith('.md') && n !== INDEX)
    .sort();
  if (names.length === 0) throw new RewardKitError('RK_USAGE', `${dir} holds no pool review files`);
  refuseMarkdown(out, force);
  const report: PoolImportReport = { approved: [], rejected: [], pending: [], errors: [], written: 0 };
  const writes: Array<[string, string]> = [];
  for (const name of names) {
    const path = join(dir, name);
    const id = name.replace(/\.md$/, '');
    const originalPath = join(dir, ORIGINALS, name);
    const original = existsSync(originalPath) ? readFileSync(originalPath, 'utf8') : undefined;
    const parsed = parseDomainPoolReview(readFileSync(path, 'utf8'), path);
    if (!parsed.ok && parsed.errors.length > 0) {
      report.errors.push(...parsed.errors);
      continue;
    }
    const apply =
      parsed.ok && (parsed.status === 'approved' || (parsed.status === 'pending' && includePending));
    if (parsed.ok && apply) {
      const before = original === undefined ? undefined : parseDomainPool(original, originalPath);
      const changes = before
        ? domainPoolChanges(before, parsed.pool)
        : { added: parsed.pool.criteria.map((c) => c.name), removed: [], edited: [] };
      report.approved.push({ id, changes });
      writes.push([name, parsed.markdown]);
      continue;
    }
    (parsed.status === 'rejected' ? report.rejected : report.pending).push(id);
    if (original !== undefined) writes.push([name, original]);
  }
  if (report.errors.length > 0) return report;
  mkdirSync(out, { recursive: true });
  for (const [name, text] of writes) writeFileSync(join(out, name), text);
  report.written = writes.length;
  return report;
}
