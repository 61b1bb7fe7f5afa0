import type { Evidence, JudgeCall } from './api';
import { num } from './format';
import { JudgeCalls } from './judge-calls';
import { RawDetail } from './raw-detail';

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
      <RawDetail detail={evidence.detail} />
      {calls.length > 0 && <JudgeCalls calls={calls} path={callsPath} />}
    </article>
  );
}
