/** A scored row: its id, its score (null when the row has none), and where it is (`file:line`). */
export interface ScoredRow {
  readonly id: string;
  readonly score: number | null;
  readonly place: string;
  /** The field the score was read from, for naming the row (default `score`). */
  readonly field?: string;
}

/** A label row that parsed: its id, its label in [0, 1], and where it is (`file:line`). */
export interface LabelRow {
  readonly id: string;
  readonly label: number;
  readonly place: string;
}

export interface JoinedLabels {
  /** The scored rows that have a label, in the order of the scores. */
  readonly points: readonly { readonly id: string; readonly score: number; readonly label: number }[];
  /** Every row left out, named by file:line:field and why. */
  readonly problems: readonly string[];
  readonly counts: {
    /** Scored rows with no label. */
    readonly unlabelled: number;
    /** Scored rows whose score is null (the scoring failed). */
    readonly unscored: number;
    /** Label rows whose id has no scored row. */
    readonly orphan_labels: number;
    /** Label rows repeating an earlier id (the first is kept). */
    readonly duplicate_labels: number;
    /** Scored rows repeating an earlier id (the first is kept), so no label counts twice. */
    readonly duplicate_scores: number;
  };
}

/** Pairs scores with labels by id; every row that cannot be paired is named and counted, never guessed. */
export function joinLabels(scores: readonly ScoredRow[], labels: readonly LabelRow[]): JoinedLabels {
  const problems: string[] = [];
  const byId = new Map<string, LabelRow>();
  let duplicate_labels = 0;
  for (const row of labels) {
    const first = byId.get(row.id);
    if (first) {
      duplicate_labels++;
      problems.push(
        `${row.place}:id: "${row.id}" is labelled already at ${first.place}; the first label is kept`,
      );
    } else byId.set(row.id, row);
  }
  const scoredAt = new Map<string, string>();
  const points: { id: string; score: number; label: number }[] = [];
  let unlabelled = 0;
  let unscored = 0;
  let duplicate_scores = 0;
  for (const row of scores) {
    const first = scoredAt.get(row.id);
    if (first !== undefined) {
      duplicate_scores++;
      problems.push(`${row.place}:id: "${row.id}" is scored already at ${first}; the first score is kept`);
      continue;
    }
    scoredAt.set(row.id, row.place);
    const label = byId.get(row.id);
    if (row.score === null) {
      unscored++;
      problems.push(`${row.place}:${row.field ?? 'score'}: "${row.id}" has no score (its scoring failed)`);
    } else if (!label) {
      unlabelled++;
      problems.push(`${row.place}:id: no label for "${row.id}"`);
    } else points.push({ id: row.id, score: row.score, label: label.label });
  }
  let orphan_labels = 0;
  for (const row of byId.values()) {
    if (scoredAt.has(row.id)) continue;
    orphan_labels++;
    problems.push(`${row.place}:id: no score for "${row.id}"`);
  }
  return {
    points,
    problems,
    counts: { unlabelled, unscored, orphan_labels, duplicate_labels, duplicate_scores },
  };
}
