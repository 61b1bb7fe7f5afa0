import type { Evidence } from '../../core/index.js';
import type { PanelRatings } from '../../judges/index.js';
import type { PanelDetail } from './panel-source.js';

/**
 * What agreement reads of a panel's evidence: each member's verdict and score, whether it
 * escalated, and the calls and tokens of the judgment. Undefined for evidence of another kind
 * or without the panel's detail (a panel that timed out as a whole).
 */
export function panelRatingsOf(
  evidence: Pick<Evidence, 'kind' | 'detail' | 'usage'>,
): PanelRatings | undefined {
  if (evidence.kind !== 'panel') return undefined;
  const detail = evidence.detail as Partial<PanelDetail> | undefined;
  if (!Array.isArray(detail?.members)) return undefined;
  return {
    members: detail.members.map((m) => ({
      name: m.name,
      verdict: m.verdict,
      ...(m.score !== undefined && { score: m.score }),
    })),
    escalated: detail.escalated === true,
    ...(evidence.usage !== undefined && {
      calls: evidence.usage.calls,
      tokens: evidence.usage.prompt_tokens + evidence.usage.completion_tokens,
    }),
  };
}
