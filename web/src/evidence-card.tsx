import type { Evidence, JudgeCall } from './api';
import { DetailTree } from './detail-tree';
import { num } from './format';
import { JudgeCalls } from './judge-calls';

/** Keys under which judges keep the two orders of a pairwise comparison. */
const ORDER_PAIRS: [string, string][] = [
  ['forward', 'reverse'],
  ['ab', 'ba'],
  ['original', 'swapped'],
];

/**
 * One source's evidence: verdict, score, reason, LLM usage (the judge trace's tokens, latency and
 * cache hits), its detail (a pairwise judge's two orders side by side) and every judge call behind
 * it (`callsPath`: where each call's whole texts are asked for).
 */
export function EvidenceCard({
  evidence,
  calls = [],
  callsPath,
}: {
  evidence: Evidence;
  calls?: JudgeCall[];
  callsPath: string;
}) {
  const detail = evidence.detail as Record<string, unknown> | undefined;
  const pair =
    detail && typeof detail === 'object'
      ? ORDER_PAIRS.find(([a, b]) => detail[a] !== undefined && detail[b] !== undefined)
      : undefined;
  const rest =
    pair && detail ? Object.fromEntries(Object.entries(detail).filter(([k]) => !pair.includes(k))) : detail;
  return (
    <article className={`evidence verdict-${evidence.verdict}`} data-source={evidence.source}>
      <h3>
        {evidence.source} <span className="muted">{evidence.kind}</span> · {evidence.verdict}
        {evidence.score !== undefined && ` · score ${num(evidence.score)}`}
        {evidence.veto && ' · veto'}
        {evidence.invalid && ' · invalid'}
        <span className="muted"> · {num(evidence.elapsed_ms, 1)} ms</span>
      </h3>
      {evidence.reason && <p className="reason">{evidence.reason}</p>}
      {evidence.usage && (
        <p className="trace" data-trace>
          judge calls {evidence.usage.calls} · tokens {evidence.usage.prompt_tokens} in /{' '}
          {evidence.usage.completion_tokens} out · latency {num(evidence.usage.latency_ms, 1)} ms · retries{' '}
          {evidence.usage.retries} · cache hits {evidence.usage.cache_hits}
        </p>
      )}
      {pair && detail && (
        <div className="orders">
          {pair.map((key) => (
            <div key={key}>
              <h4>{key}</h4>
              <DetailTree value={detail[key]} />
            </div>
          ))}
        </div>
      )}
      {rest !== undefined && <DetailTree value={rest} />}
      {calls.length > 0 && <JudgeCalls calls={calls} path={callsPath} />}
    </article>
  );
}
