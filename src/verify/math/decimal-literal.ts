/** A number written out in digits (`-12`, `0.250`), read exactly. */
export interface DecimalLiteral {
  /** All digits as one integer, sign included: `-1.25` is -125n. */
  units: bigint;
  /** Digits after the decimal point: `-1.25` has 2. */
  scale: number;
  /** Significant digits as written (`0.0250` has 3). */
  significant: number;
}

const LITERAL = /^(-?)(\d*)(?:\.(\d+))?$/;

/** The text as an exact decimal, or null when it is anything but digits with an optional point and sign. */
export function decimalLiteral(text: string): DecimalLiteral | null {
  const m = LITERAL.exec(text.trim());
  if (!m) return null;
  const [, sign, whole = '', fraction = ''] = m;
  if (whole === '' && fraction === '') return null;
  const digits = `${whole}${fraction}`;
  const significant = digits.replace(/^0+/, '').length || 1;
  return { units: BigInt(`${sign}${digits || '0'}`), scale: fraction.length, significant };
}

/** Exact equality of two decimals: `2.50` equals `2.5`, `2.50001` does not. */
export function sameDecimal(a: DecimalLiteral, b: DecimalLiteral): boolean {
  const scale = Math.max(a.scale, b.scale);
  return a.units * 10n ** BigInt(scale - a.scale) === b.units * 10n ** BigInt(scale - b.scale);
}

export function isInteger(literal: DecimalLiteral): boolean {
  return literal.scale === 0;
}

/** The literal's value as a double. */
export function literalValue(literal: DecimalLiteral): number {
  return Number(literal.units) / 10 ** literal.scale;
}

/**
 * Whether `literal` is `value` correctly rounded at the literal's last written digit: `0.333333`
 * is 1/3 rounded to six places, `0.333334` and `0.3333` are not.
 */
export function roundsTo(literal: DecimalLiteral, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const halfUnit = 0.5 * 10 ** -literal.scale;
  // A hair of slack for the double `value` itself: ties are rare and never decide a reward.
  return Math.abs(literalValue(literal) - value) <= halfUnit * (1 + 1e-9);
}
