import { useState } from 'react';
import { getText, type JudgeCall } from './api';
import { DetailTree } from './detail-tree';
import { num } from './format';
import { ModeToggle, type TextMode } from './rich-text';
import { WholeText } from './whole-text';

type Numbered = { call: JudgeCall; index: number };

/** A token count as the backend reported it: `—` where it reported none (never a made-up 0). */
const count = (n: number | undefined) => (n === undefined ? '—' : String(n));

function CallSummary({ call, index }: Numbered) {
  return (
    <summary>
      <b>#{index + 1}</b> {call.role ?? 'call'}
      {call.order && ` · ${call.order}`}
      {call.variant !== undefined && ` · vote ${call.variant}`}
      <span className="muted">
        {' '}
        · tokens {count(call.prompt_tokens)} in / {count(call.completion_tokens)} out ·{' '}
        {num(call.latency_ms, 1)} ms · retries {call.retries}
        {call.cached && ' · cache hit'}
        {call.answered_at && (
          <>
            {' · answered '}
            <time dateTime={call.answered_at}>{call.answered_at.replace('T', ' ').slice(0, 23)}</time>
          </>
        )}
        {call.finish_reason !== 'stop' && ` · finish ${call.finish_reason}`}
      </span>
      {call.parse_error !== undefined && <span className="errors"> · unreadable</span>}
    </summary>
  );
}

/** The parsed value, or a button that fetches it when it was too long to send with the page. */
function Parsed({ call, path }: { call: JudgeCall; path: string }) {
  const [whole, setWhole] = useState<unknown>();
  if (call.parsed !== undefined) return <DetailTree value={call.parsed} />;
  if (whole !== undefined) return <DetailTree value={whole} />;
  return (
    <button
      type="button"
      onClick={() => getText(`${path}&field=parsed`).then((t) => setWhole(JSON.parse(t)))}
    >
      Load the parsed value ({(call.parsed_chars ?? 0).toLocaleString('en')} characters)
    </button>
  );
}

/** One call: what was sent, what came back, what the judge read from it (or why it could not). */
function CallView({ call, index, path }: Numbered & { path: string }) {
  const at = `${path}&call=${index}`;
  // Raw first: it is what the judge's parser read; rendered shows its reasoning's Markdown and TeX.
  const [outputMode, setOutputMode] = useState<TextMode>('raw');
  return (
    <details className="judge-call" data-role={call.role ?? ''} data-order={call.order ?? ''}>
      <CallSummary call={call} index={index} />
      <h5>Messages</h5>
      {call.messages.map((m, k) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the messages of a stored call never reorder
        <div key={k} className="message call-message" data-message-role={m.role}>
          <b>
            {m.role}
            {m.tool_call_id !== undefined && <span className="muted"> (answers {m.tool_call_id})</span>}
          </b>
          <WholeText text={m.content} chars={m.content_chars} path={`${at}&field=message&message=${k}`} />
          {m.tool_calls && <DetailTree value={m.tool_calls} />}
        </div>
      ))}
      <div className="block-head">
        <h5>Output</h5>
        <ModeToggle mode={outputMode} onChange={setOutputMode} what="output" />
      </div>
      <WholeText
        text={call.raw}
        chars={call.raw_chars}
        path={`${at}&field=raw`}
        className="text call-raw"
        mode={outputMode}
      />
      {call.parse_error !== undefined && (
        <p className="errors call-parse-error">Parse error: {call.parse_error}</p>
      )}
      {(call.parsed !== undefined || call.parsed_chars !== undefined) && (
        <>
          <h5>Parsed</h5>
          <Parsed call={call} path={at} />
        </>
      )}
      {call.warnings && call.warnings.length > 0 && (
        <ul className="warnings">
          {call.warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      )}
    </details>
  );
}

function CallList({ calls, path }: { calls: Numbered[]; path: string }) {
  return (
    <>
      {calls.map(({ call, index }) => (
        <CallView key={index} call={call} index={index} path={path} />
      ))}
    </>
  );
}

/**
 * Every LLM call behind one piece of evidence, in the order made. A pairwise judge's calls of the
 * two orders sit side by side (per opponent in a round robin); calls of no order (pre-checks,
 * intent analysis) come first.
 */
export function JudgeCalls({ calls, path }: { calls: JudgeCall[]; path: string }) {
  const numbered = calls.map((call, index) => ({ call, index }));
  const opponents = [...new Set(numbered.map((n) => n.call.opponent))];
  return (
    <section className="judge-calls" data-judge-calls>
      <h4>Judge calls ({calls.length})</h4>
      {opponents.map((opponent) => {
        const mine = numbered.filter((n) => n.call.opponent === opponent);
        const forward = mine.filter((n) => n.call.order === 'forward');
        const backward = mine.filter((n) => n.call.order === 'backward');
        const other = mine.filter((n) => n.call.order === undefined);
        return (
          <div key={opponent ?? ''}>
            {opponent !== undefined && <h5>against {opponent}</h5>}
            <CallList calls={other} path={path} />
            {forward.length > 0 && backward.length > 0 ? (
              <div className="orders">
                <div data-order-column="forward">
                  <h5>forward</h5>
                  <CallList calls={forward} path={path} />
                </div>
                <div data-order-column="backward">
                  <h5>backward</h5>
                  <CallList calls={backward} path={path} />
                </div>
              </div>
            ) : (
              <CallList calls={[...forward, ...backward]} path={path} />
            )}
          </div>
        );
      })}
    </section>
  );
}
