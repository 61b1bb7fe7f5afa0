import { useState } from 'react';
import { enc, type SampleDetail } from './api';
import { EvidenceCard } from './evidence-card';
import { num } from './format';
import { ModeToggle, RichText, type TextMode, useRenderer } from './rich-text';
import { StatusLine } from './status-line';
import { useApi } from './use-api';
import { href } from './use-hash-route';
import { WordDiffView } from './word-diff-view';

interface ComparedSampleDetail {
  sample_id: string;
  a: SampleDetail;
  b: SampleDetail;
}

const shown = (side: SampleDetail) => (side.result.status === 'failed' ? 'failed' : num(side.result.reward));

/** One sample id in two runs side by side: rewards, components, the responses' diff, each run's evidence. */
export function CompareSamplePage({ a, b, sampleId }: { a: string; b: string; sampleId: string }) {
  const loaded = useApi<ComparedSampleDetail>(`compare/${enc(a)}/${enc(b)}/${enc(sampleId)}`);
  // The word diff is of the raw text, so raw comes first here; rendered shows the two side by side.
  const [responsesMode, setResponsesMode] = useState<TextMode>('raw');
  const rendererSettled = useRenderer() !== undefined;
  const back = (
    <p>
      <a href={href('compare', a, b)}>
        ← compare {a} with {b}
      </a>
    </p>
  );
  if (loaded.state === 'error')
    return (
      <section>
        {back}
        <p className="error" role="alert">
          Cannot compare this sample: {loaded.message}
        </p>
      </section>
    );
  if (loaded.state !== 'ok' || !rendererSettled)
    return <StatusLine loaded={loaded.state === 'ok' ? { state: 'loading' } : loaded} />;
  const { a: left, b: right } = loaded.data;
  const sources = [
    ...new Set([...Object.keys(left.result.components), ...Object.keys(right.result.components)]),
  ];
  const delta =
    left.result.reward !== null && right.result.reward !== null
      ? right.result.reward - left.result.reward
      : null;
  const sides = [
    { run: a, detail: left, label: 'A' },
    { run: b, detail: right, label: 'B' },
  ];
  return (
    <section id="compare-sample">
      {back}
      <h1>
        Sample <span id="sample-id">{loaded.data.sample_id}</span> in two runs
      </h1>
      <table className="grid" id="compare-numbers">
        <thead>
          <tr>
            <th />
            <th>
              A <a href={href('runs', a, 'samples', sampleId)}>{a}</a>
            </th>
            <th>
              B <a href={href('runs', b, 'samples', sampleId)}>{b}</a>
            </th>
            <th>Δ</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <td>reward</td>
            <td className="n">{shown(left)}</td>
            <td className="n">{shown(right)}</td>
            <td className="n">{delta === null ? '—' : num(delta)}</td>
          </tr>
          {sources.map((s) => {
            const x = left.result.components[s] ?? null;
            const y = right.result.components[s] ?? null;
            return (
              <tr key={s} className={x === y ? undefined : 'moved'}>
                <td>{s}</td>
                <td className="n">{num(x)}</td>
                <td className="n">{num(y)}</td>
                <td className="n">{x !== null && y !== null ? num(y - x) : '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {sides.map(({ label, detail }) =>
        detail.result.errors.length > 0 ? (
          <ul className="errors" key={label}>
            {detail.result.errors.map((e) => (
              <li key={e}>
                {label}: {e}
              </li>
            ))}
          </ul>
        ) : null,
      )}
      <div className="block-head">
        <h2>
          Responses (A left, B right
          {responsesMode === 'raw' && '; words only in A struck, only in B marked'})
        </h2>
        <ModeToggle mode={responsesMode} onChange={setResponsesMode} what="responses" />
      </div>
      {left.text && right.text && responsesMode === 'rendered' ? (
        <div className="side-by-side" id="rendered-responses">
          <RichText text={left.text.response} mode="rendered" />
          <RichText text={right.text.response} mode="rendered" />
        </div>
      ) : left.text && right.text ? (
        <>
          <WordDiffView a={left.text.response} b={right.text.response} />
          {(left.text.response_chars > left.text.response.length ||
            right.text.response_chars > right.text.response.length) && (
            <p className="muted">A response over 100,000 characters is compared on its first 100,000.</p>
          )}
        </>
      ) : (
        <p className="muted" id="no-diff">
          {left.text ? 'Run B' : right.text ? 'Run A' : 'Neither run'} kept no response text for this sample,
          so there is nothing to diff.
        </p>
      )}
      <h2>Evidence</h2>
      <div className="side-by-side">
        {sides.map(({ run, detail, label }) => (
          <div key={label} className="evidence-column" data-side={label.toLowerCase()}>
            <h3>
              {label}: {run}
            </h3>
            {detail.result.evidence.length === 0 && <p className="muted">no evidence</p>}
            {detail.result.evidence.map((e, i) => (
              <EvidenceCard
                // biome-ignore lint/suspicious/noArrayIndexKey: a result's evidence keeps its order
                key={i}
                evidence={e}
                calls={detail.judge_calls[i]}
                callsPath={`runs/${enc(run)}/samples/${enc(sampleId)}/call?evidence=${i}`}
              />
            ))}
          </div>
        ))}
      </div>
    </section>
  );
}
