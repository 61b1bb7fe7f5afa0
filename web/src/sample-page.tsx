import { useState } from 'react';
import { enc, getText, type SampleDetail } from './api';
import { EvidenceCard } from './evidence-card';
import { num } from './format';
import { extractedAnswer, HighlightedText } from './highlighted-text';
import { LabelPanel } from './label-panel';
import { StatusLine } from './status-line';
import { useApi } from './use-api';
import { href } from './use-hash-route';

/** One sample: prompt, response (answer marked), reward, components, every source's evidence. */
export function SamplePage({ runId, sampleId }: { runId: string; sampleId: string }) {
  const path = `runs/${enc(runId)}/samples/${enc(sampleId)}`;
  const loaded = useApi<SampleDetail>(path);
  const [whole, setWhole] = useState<string | undefined>();
  if (loaded.state !== 'ok') return <StatusLine loaded={loaded} />;
  const { result, text, judge_calls } = loaded.data;
  const answer = extractedAnswer(result.evidence.map((e) => e.detail));
  const cut = text !== null && text.response_chars > text.response.length;
  return (
    <section>
      <p>
        <a href={href('runs', runId)}>← run {runId}</a>
      </p>
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
          <h2>Prompt</h2>
          {text.prompt_truncated ? (
            <button type="button" onClick={() => getText(`${path}/text?field=prompt`).then(setWhole)}>
              Load the prompt (large)
            </button>
          ) : typeof text.prompt === 'string' ? (
            <pre className="text">{text.prompt}</pre>
          ) : text.prompt ? (
            text.prompt.map((m, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: messages of a stored prompt never reorder
              <div key={i} className="message">
                <b>{m.role}</b>
                <pre className="text">{m.content}</pre>
              </div>
            ))
          ) : (
            <p className="muted">none</p>
          )}
          <h2>Response {answer && <span className="muted">(extracted answer marked)</span>}</h2>
          <div id="response">
            <HighlightedText text={whole ?? text.response} mark={answer} />
          </div>
          {cut && whole === undefined && (
            <button type="button" onClick={() => getText(`${path}/text?field=response`).then(setWhole)}>
              Load all {text.response_chars.toLocaleString('en')} characters
            </button>
          )}
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
