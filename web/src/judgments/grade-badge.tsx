/** How a grade reads at a glance: good, partial, bad, or neutral. */
export type Tone = 'good' | 'partial' | 'bad' | 'neutral';

/** A grade, verdict or vote as a coloured label; `data-grade` keeps the stored value. */
export function GradeBadge({ tone, value, label }: { tone: Tone; value: string; label?: string }) {
  return (
    <span className={`badge tone-${tone}`} data-grade={value}>
      {label ?? value.replaceAll('_', ' ')}
    </span>
  );
}
