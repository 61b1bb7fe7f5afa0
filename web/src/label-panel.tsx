import { useEffect, useState } from 'react';
import { enc } from './api';
import { num } from './format';
import { type LabelBody, putLabel, type SampleLabel } from './label-api';
import { useApi } from './use-api';

const describe = (label: SampleLabel) =>
  `${label.kind === 'score' ? `score ${num(label.score)}` : label.kind}${label.note ? ` — ${label.note}` : ''}`;

/**
 * A person's label of one sample: shown when there is one, and written here when the inspector
 * runs with --allow-labels (the store's answer says so).
 */
export function LabelPanel({ runId, sampleId }: { runId: string; sampleId: string }) {
  const path = `runs/${enc(runId)}/samples/${enc(sampleId)}/label`;
  const store = useApi<{ labels: boolean }>('store');
  const loaded = useApi<{ label: SampleLabel | null }>(path);
  const [saved, setSaved] = useState<SampleLabel | null | undefined>();
  const [kind, setKind] = useState<LabelBody['kind']>('correct');
  const [score, setScore] = useState('');
  const [note, setNote] = useState('');
  const [message, setMessage] = useState('');
  // A label written here replaces the one loaded; another sample starts from its own.
  // biome-ignore lint/correctness/useExhaustiveDependencies: path is the reset key
  useEffect(() => {
    setSaved(undefined);
    setMessage('');
  }, [path]);
  const current = saved !== undefined ? saved : loaded.state === 'ok' ? loaded.data.label : null;
  const writable = store.state === 'ok' && store.data.labels;
  if (!writable && current === null) return null;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const value = Number(score);
    if (kind === 'score' && (score.trim() === '' || !(value >= 0 && value <= 1))) {
      setMessage('A score is a number from 0 to 1.');
      return;
    }
    const body: LabelBody =
      kind === 'score'
        ? { kind, score: value, ...(note !== '' && { note }) }
        : { kind, ...(note !== '' && { note }) };
    setMessage('Saving…');
    try {
      setSaved(await putLabel(path, body));
      setMessage('Saved.');
    } catch (error) {
      setMessage(`Not saved: ${(error as Error).message}`);
    }
  };

  return (
    <section id="label-panel">
      <h2>Label</h2>
      <p id="label-current">{current ? describe(current) : <span className="muted">No label yet.</span>}</p>
      {writable && (
        <form onSubmit={submit} className="label-form" noValidate>
          <fieldset>
            <legend>This sample's reward is</legend>
            {(['correct', 'incorrect', 'score'] as const).map((k) => (
              <label key={k}>
                <input
                  type="radio"
                  name="label-kind"
                  value={k}
                  checked={kind === k}
                  onChange={() => setKind(k)}
                />{' '}
                {k === 'score' ? 'a score' : k}
              </label>
            ))}
            <label>
              score (0–1){' '}
              <input
                id="label-score"
                type="number"
                min={0}
                max={1}
                step={0.01}
                value={score}
                disabled={kind !== 'score'}
                onChange={(e) => setScore(e.target.value)}
              />
            </label>
          </fieldset>
          <label>
            note{' '}
            <textarea
              id="label-note"
              maxLength={2000}
              rows={2}
              value={note}
              onChange={(e) => setNote(e.target.value)}
            />
          </label>
          <button type="submit" id="label-save">
            Save label
          </button>{' '}
          <span id="label-status" role="status">
            {message}
          </span>
        </form>
      )}
    </section>
  );
}
