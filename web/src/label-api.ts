import { ApiCallError } from './api';

/** A person's label of a sample (src/store/sample-label.ts), as the label routes answer it. */
export interface SampleLabel {
  run_id: string;
  sample_id: string;
  kind: 'correct' | 'incorrect' | 'score';
  score: number | null;
  note: string | null;
  labeled_at: string;
}

export type LabelBody =
  | { kind: 'correct' | 'incorrect'; note?: string }
  | { kind: 'score'; score: number; note?: string };

/** Writes a label (the inspector must run with --allow-labels); resolves with the stored one. */
export async function putLabel(path: string, body: LabelBody): Promise<SampleLabel> {
  const res = await fetch(`api/${path}`, {
    method: 'PUT',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const answer = (await res.json().catch(() => undefined)) as
    | { label?: SampleLabel; error?: { message?: string } }
    | undefined;
  if (res.ok && answer?.label) return answer.label;
  throw new ApiCallError(answer?.error?.message ?? `${res.status} ${res.statusText}`);
}
