import type { Evidence, JudgeCall } from './api';
import { num } from './format';
import { JudgeCalls } from './judge-calls';
import { JudgmentFallback, judgmentView } from './judgments';
import { RawDetail } from './raw-detail';

/**
 * A source's detail: the judge kind's own view (claims, rubric grades, EVPV steps, tool-plan
 * judgments, OpenRS criteria) with the stored detail in a "raw detail" fold below it; the tree
 * alone for any other kind, for a detail the view does not recognise, or one it fails to draw.
 */
function EvidenceDetail({ evidence }: { evidence: Evidence }) {
  const view = evidence.detail === undefined ? undefined : judgmentView(evidence.kind, evidence.detail);
  const raw = <RawDetail detail={evidence.detail} />;
  if (view === undefined) return raw;
  return (
    <JudgmentFallback fallback={raw}>
      {view}
      <details className="raw-detail">
        <summary>raw detail</summary>
        {raw}
      </details>
    </JudgmentFallback>
  );
}

/**
 * One source's evidence: verdict, score, reason, LLM usage (the judge trace's tokens, latency and
 * cache hits), its detail and every judge call behind it (`callsPath`: where each call's whole
 * texts are asked for).
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
  return (
    <article className={`evidence verdict-${evidence.verdict}`} data-source={evidence.source}>
      <h3>
        {evidence.source} <span className="muted">{evidence.kind}</span> · {evidence.verdict}
        {evidence.score !== undefined && ` · score ${num(evidence.score)}`}
        {evidence.raw_score !== undefined && ` (calibrated from ${num(evidence.raw_score)})`}
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
      <EvidenceDetail evidence={evidence} />
      {calls.length > 0 && <JudgeCalls calls={calls} path={callsPath} />}
    </article>
  );
}
