import { type AgreementStatistic, noAgreement } from './agreement-statistic.js';
import { cohenKappa, type RatingPair } from './cohen-kappa.js';
import { fleissKappa } from './fleiss-kappa.js';
import { krippendorffAlpha } from './krippendorff-alpha.js';

/** What a panel's evidence on one sample says, as agreement needs it. */
export interface PanelRatings {
  /** Each member's verdict and score, in the panel's member order; `error`: the member did not judge. */
  readonly members: readonly {
    readonly name: string;
    readonly verdict: string;
    readonly score?: number;
  }[];
  readonly escalated: boolean;
  /** The panel's calls and tokens on this sample, escalation included. */
  readonly calls?: number;
  readonly tokens?: number;
}

/** How far a panel's members agreed over a run, and what a judgment cost. */
export interface PanelAgreement {
  readonly members: readonly string[];
  /** Samples the panel judged or tried to (invalid ones too: they were paid for). */
  readonly judgments: number;
  /** Cohen's kappa over the verdicts of a two-member panel (samples both judged). */
  readonly cohen_kappa?: AgreementStatistic;
  /** Fleiss' kappa over the verdicts (samples every member judged). */
  readonly fleiss_kappa: AgreementStatistic;
  /** Krippendorff's alpha over the verdicts (nominal) and the scores (interval); missing members allowed. */
  readonly alpha_nominal: AgreementStatistic;
  readonly alpha_interval: AgreementStatistic;
  /** Share of judgments that called the `escalate_to` judge. */
  readonly escalation_rate: number | null;
  readonly calls_per_judgment: number | null;
  readonly tokens_per_judgment: number | null;
}

const answered = (m: PanelRatings['members'][number]) => m.verdict !== 'error';

/**
 * Agreement among a panel's members and its cost per judgment, from the panel evidence of a
 * run's samples. The escalation judge is not a rater: it is asked only where the members
 * disagreed. A pure function over stored evidence, so a stored run gives the same figures.
 */
export function panelAgreement(judgments: readonly PanelRatings[]): PanelAgreement {
  const members = judgments[0]?.members.map((m) => m.name) ?? [];
  const n = judgments.length;
  const complete = judgments.filter((j) => j.members.every(answered));
  const verdicts = judgments.map((j) => j.members.map((m) => (answered(m) ? m.verdict : null)));
  const scores = judgments.map((j) => j.members.map((m) => (answered(m) ? (m.score ?? null) : null)));
  const categories = [...new Set(complete.flatMap((j) => j.members.map((m) => m.verdict)))];
  const per = (total: number) => (n > 0 ? total / n : null);
  return {
    members,
    judgments: n,
    ...(members.length === 2 && {
      cohen_kappa: cohenKappa(
        complete.map((j) => j.members.map((m) => m.verdict) as unknown as RatingPair<string>),
      ),
    }),
    fleiss_kappa:
      complete.length === 0
        ? noAgreement(0, 'no sample was judged by every member')
        : fleissKappa(
            complete.map((j) => categories.map((c) => j.members.filter((m) => m.verdict === c).length)),
          ),
    alpha_nominal: krippendorffAlpha(verdicts, 'nominal'),
    alpha_interval: krippendorffAlpha(scores, 'interval'),
    escalation_rate: per(judgments.filter((j) => j.escalated).length),
    calls_per_judgment: per(judgments.reduce((sum, j) => sum + (j.calls ?? 0), 0)),
    tokens_per_judgment: per(judgments.reduce((sum, j) => sum + (j.tokens ?? 0), 0)),
  };
}
