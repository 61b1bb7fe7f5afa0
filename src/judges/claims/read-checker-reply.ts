/** One item of a Checker reply as the model wrote it. */
export interface CheckerItem {
  readonly id: string;
  readonly evidence: string;
  readonly answer: string;
}

/** A Checker reply matched back to our claim ids. */
export interface CheckerReading {
  /** The item for each claim id the run answered. */
  readonly byId: ReadonlyMap<string, CheckerItem>;
  /** Claim ids the run skipped: each counts -1 for this run. */
  readonly missing: readonly string[];
  /** Ids we never gave (renumbered, invented): ignored, and the claims they displaced are missing. */
  readonly unknown: readonly string[];
  /** Ids answered more than once: the first answer counts, the later ones are ignored. */
  readonly duplicates: readonly string[];
}

// Ids are ours ("C1"); a model that changes their case or pads them still means the same item.
const canonical = (id: string) => id.trim().toUpperCase();

/**
 * Matches a Checker run's items to the claims by the id we gave each question, never by position,
 * so a reply that reorders items is read correctly and one that skips or renumbers them cannot
 * credit an answer to the wrong claim.
 */
export function readCheckerReply(claimIds: readonly string[], items: readonly CheckerItem[]): CheckerReading {
  const ours = new Map(claimIds.map((id) => [canonical(id), id]));
  const byId = new Map<string, CheckerItem>();
  const unknown: string[] = [];
  const duplicates: string[] = [];
  for (const item of items) {
    const id = ours.get(canonical(item.id));
    if (id === undefined) unknown.push(item.id);
    else if (byId.has(id)) duplicates.push(id);
    else byId.set(id, item);
  }
  const missing = claimIds.filter((id) => !byId.has(id));
  return { byId, missing, unknown, duplicates };
}
