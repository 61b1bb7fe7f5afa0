import { useState } from 'react';
import { enc, getText, type SampleDetail, type SampleRow } from './api';
import { EvidenceCard } from './evidence-card';
import { num } from './format';
import { extractedAnswer } from './highlighted-text';
import { LabelPanel } from './label-panel';
import { ReferenceBlock } from './reference-block';
import { BlockHead, RichText, type TextMode, useRenderer } from './rich-text';
import { sampleHref } from './samples-table';
import { StatusLine } from './status-line';
import { useApi } from './use-api';
import { hrefWith, useHashQuery } from './use-hash-route';
import { useKey } from './use-key';

/** One sample: prompt, response (answer marked), reference, reward, components, every source's evidence. */
export function SamplePage({ runId, sampleId }: { runId: string; sampleId: string }) {
  const path = `runs/${enc(runId)}/samples/${enc(sampleId)}`;
  const loaded = useApi<SampleDetail>(path);
  const [whole, setWhole] = useState<string | undefined>();
  // Apart from the response's: loading a large prompt must not replace the response.
  const [wholePrompt, setWholePrompt] = useState<string | undefined>();
  const [promptMode, setPromptMode] = useState<TextMode>('rendered');
  const [responseMode, setResponseMode] = useState<TextMode>('rendered');
  const [referenceMode, setReferenceMode] = useState<TextMode>('rendered');
  const { back, previous, next } = useNeighbours(runId, sampleId);
  const rendererSettled = useRenderer() !== undefined;
  useKey('j', () => {
    if (next) window.location.hash = next;
  });
  useKey('k', () => {
    if (previous) window.location.hash = previous;
  });
  const nav = (
    <nav className="sample-nav">
      <a href={back}>← run {runId}</a>
      {previous && (
        <a id="previous-sample" href={previous} title="previous sample (k)">
          ‹ previous
        </a>
      )}
      {next && (
        <a id="next-sample" href={next} title="next sample (j)">
          next ›
        </a>
      )}
    </nav>
  );
  if (loaded.state !== 'ok' || !rendererSettled)
    return (
      <section>
        {nav}
        <StatusLine loaded={loaded.state === 'ok' ? { state: 'loading' } : loaded} />
      </section>
    );
  const { result, text, judge_calls } = loaded.data;
  const answer = extractedAnswer(result.evidence.map((e) => e.detail));
  const cut = text !== null && text.response_chars > text.response.length;
  return (
    <section>
      {nav}
      <h1>
        Sample <span id="sample-id">{result.id}</span>
      </h1>
      <p>
        {result.status} · reward <b id="reward">{num(result.reward)}</b>
        {result.data_source && ` · ${result.data_source}`}
        {result.group && ` · group ${result.group}`} · {num(result.timings.total_ms, 1)} ms
      </p>
      {result.errors.length > 0 && (
        <ul className="errors">
          {result.errors.map((e) => (
            <li key={e}>{e}</li>
          ))}
        </ul>
      )}
      {result.warnings.length > 0 && (
        <ul className="warnings">
          {result.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
      <LabelPanel runId={runId} sampleId={sampleId} />
      <h2>Components</h2>
      <table className="grid">
        <tbody>
          {Object.entries(result.components).map(([source, score]) => (
            <tr key={source}>
              <td>{source}</td>
              <td className="n">{num(score)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {text === null ? (
        <p className="muted">
          No prompt or response was saved with this result (server results and older stores).
        </p>
      ) : (
        <>
          <BlockHead title="Prompt" mode={promptMode} onChange={setPromptMode} what="prompt" />
          {wholePrompt !== undefined ? (
            <div id="prompt">
              <RichText text={wholePrompt} mode={promptMode} />
            </div>
          ) : text.prompt_truncated ? (
            <button type="button" onClick={() => getText(`${path}/text?field=prompt`).then(setWholePrompt)}>
              Load the prompt (large)
            </button>
          ) : typeof text.prompt === 'string' ? (
            <RichText text={text.prompt} mode={promptMode} />
          ) : text.prompt ? (
            text.prompt.map((m, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: messages of a stored prompt never reorder
              <div key={i} className="message">
                <b>{m.role}</b>
                <RichText text={m.content} mode={promptMode} />
              </div>
            ))
          ) : (
            <p className="muted">none</p>
          )}
          <BlockHead
            title={<>Response {answer && <span className="muted">(extracted answer marked)</span>}</>}
            mode={responseMode}
            onChange={setResponseMode}
            what="response"
          />
          <div id="response">
            <RichText text={whole ?? text.response} mode={responseMode} mark={answer} />
          </div>
          {cut && whole === undefined && (
            <button type="button" onClick={() => getText(`${path}/text?field=response`).then(setWhole)}>
              Load all {text.response_chars.toLocaleString('en')} characters
            </button>
          )}
          <BlockHead title="Reference" mode={referenceMode} onChange={setReferenceMode} what="reference" />
          <ReferenceBlock
            reference={text.reference}
            truncated={text.reference_truncated}
            textPath={`${path}/text`}
            mode={referenceMode}
          />
        </>
      )}
      <h2>Evidence and judge traces</h2>
      {result.evidence.map((e, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a result's evidence keeps its order
        <EvidenceCard key={i} evidence={e} calls={judge_calls[i]} callsPath={`${path}/call?evidence=${i}`} />
      ))}
    </section>
  );
}

/**
 * The samples before and after this one in the table it was opened from: the hash carries the
 * table's filters and the row's place (`i`), and the rows either side are asked for in that order.
 * A sample opened without a place (a pasted id) has no neighbours.
 */
function useNeighbours(
  runId: string,
  sampleId: string,
): { back: string; previous: string | undefined; next: string | undefined } {
  const hashQuery = useHashQuery();
  const place = hashQuery.get('i');
  hashQuery.delete('i');
  const query = hashQuery.toString();
  const index = place === null ? Number.NaN : Number(place);
  const placed = Number.isInteger(index) && index >= 0;
  const offset = Math.max(0, index - 1);
  const sep = query === '' ? '' : '&';
  const around = useApi<{ rows: SampleRow[] }>(
    placed ? `runs/${enc(runId)}/samples?${query}${sep}limit=3&offset=${offset}` : undefined,
  );
  const backParams = new URLSearchParams(query);
  if (placed && index > 0) backParams.set('row', String(Math.max(0, index - 5)));
  const back = hrefWith(['runs', runId], backParams);
  if (around.state !== 'ok') return { back, previous: undefined, next: undefined };
  const rows = around.data.rows;
  // The rows may have moved since the table was drawn (a live run): the place is found again by id.
  const at = rows.findIndex((r) => r.sample_id === sampleId);
  if (at < 0) return { back, previous: undefined, next: undefined };
  const here = offset + at;
  const before = rows[at - 1];
  const after = rows[at + 1];
  return {
    back,
    previous: before && sampleHref(runId, before.sample_id, query, here - 1),
    next: after && sampleHref(runId, after.sample_id, query, here + 1),
  };
}
