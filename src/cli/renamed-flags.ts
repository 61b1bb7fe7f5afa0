import { ClaimAggregateSchema } from '../judges/claims/index.js';
import type { DeprecatedFlag } from './deprecated-flag.js';

/** A number for an old ratio flag, refused naming the flag otherwise. */
const ratio = (value: string | true) => {
  const n = Number(value);
  if (String(value).trim() === '' || !Number.isFinite(n)) throw new Error(`expects a number, got "${value}"`);
  return n;
};

/** `a,b,c` as `count` numbers, or the reason it is not. */
function numbers(value: string | true, count: number, expects: string): number[] {
  const parts = String(value)
    .split(',')
    .map((s) => Number(s.trim()));
  if (parts.length !== count || parts.some((n) => !Number.isFinite(n))) {
    throw new Error(`expects ${expects}, got "${value}"`);
  }
  return parts;
}

/**
 * The flag names the row-format commands had before their options took the params' names, by
 * command: each keeps working, hidden, with a deprecation line naming the new flag.
 */
export const RENAMED_FLAGS: Readonly<Record<string, readonly DeprecatedFlag[]>> = {
  'check claims': [
    {
      flags: '--aggregate <name>',
      replacement: '--reward',
      apply: (value) => {
        const reward = ClaimAggregateSchema.safeParse(value);
        if (!reward.success)
          throw new Error(`expects one of ${ClaimAggregateSchema.options.join(', ')}, got "${value}"`);
        return [['reward', reward.data]];
      },
    },
  ],
  'judge pointwise': [
    {
      flags: '--weights <e,i,h,p>',
      replacement: '--weights-essential, --weights-important, --weights-highlight, --weights-pitfall',
      apply: (value) => {
        const [e, i, h, p] = numbers(value, 4, 'four numbers E,I,H,P (e.g. 2,1,1,2)');
        return [
          ['weightsEssential', e],
          ['weightsImportant', i],
          ['weightsHighlight', h],
          ['weightsPitfall', p],
        ];
      },
    },
    {
      flags: '--essential-ratio <r>',
      replacement: '--truncation-essential-ratio',
      apply: (v) => [['truncationEssentialRatio', ratio(v)]],
    },
    {
      flags: '--pitfall-ratio <r>',
      replacement: '--truncation-pitfall-ratio',
      apply: (v) => [['truncationPitfallRatio', ratio(v)]],
    },
    {
      flags: '--criterion-cap <L>',
      replacement: '--saturation-criterion-cap',
      apply: (v) => [['saturationCriterionCap', ratio(v)]],
    },
    {
      flags: '--essential-multiple <m>',
      replacement: '--saturation-essential-multiple',
      apply: (v) => [['saturationEssentialMultiple', ratio(v)]],
    },
  ],
  'judge tool-plan': [
    {
      flags: '--weights <p,r,o>',
      replacement: '--weights-precision, --weights-recall, --weights-overall',
      apply: (value) => {
        const parts = numbers(
          value,
          3,
          'three numbers ≥ 0, not all 0, as precision,recall,overall (e.g. 1,1,1)',
        );
        if (parts.some((n) => n < 0) || parts.every((n) => n === 0)) {
          throw new Error(
            `expects three numbers ≥ 0, not all 0, as precision,recall,overall (e.g. 1,1,1), got "${value}"`,
          );
        }
        const [precision, recall, overall] = parts;
        return [
          ['weightsPrecision', precision],
          ['weightsRecall', recall],
          ['weightsOverall', overall],
        ];
      },
    },
  ],
};
