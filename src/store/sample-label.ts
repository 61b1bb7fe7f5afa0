/** What a person said about one sample in the inspector: right or wrong, or a score in [0, 1]. */
export type LabelVerdict =
  | { readonly kind: 'correct' | 'incorrect'; readonly score?: undefined }
  | { readonly kind: 'score'; readonly score: number };

/** A label as written: the verdict and an optional note. */
export type NewLabel = LabelVerdict & { readonly note?: string };

/** A stored label; one per (run, sample), the last write wins. */
export interface SampleLabel {
  readonly run_id: string;
  readonly sample_id: string;
  readonly kind: 'correct' | 'incorrect' | 'score';
  /** The given score for kind `score`; null for correct/incorrect. */
  readonly score: number | null;
  readonly note: string | null;
  /** ISO time of the last write. */
  readonly labeled_at: string;
}

/** The label as a number, as calibration reads it: correct 1, incorrect 0, a score itself. */
export function sampleLabelValue(label: Pick<SampleLabel, 'kind' | 'score'>): number {
  if (label.kind === 'score') return label.score ?? Number.NaN;
  return label.kind === 'correct' ? 1 : 0;
}

/** The row written for a label: the verdict flattened into kind and score. */
export function labelRow(runId: string, sampleId: string, label: NewLabel, now: Date): SampleLabel {
  return {
    run_id: runId,
    sample_id: sampleId,
    kind: label.kind,
    score: label.kind === 'score' ? label.score : null,
    note: label.note ?? null,
    labeled_at: now.toISOString(),
  };
}
