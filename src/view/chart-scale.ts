/**
 * Linear axes for the inspector's and the reports' charts: a domain widened to round ticks and the
 * map from it onto pixels. Pure and without imports, so the web app (web/src) draws its charts from
 * the same geometry as the HTML reports.
 */

export interface LinearScale {
  /** The domain, widened to the outer ticks. */
  readonly domain: readonly [number, number];
  readonly ticks: readonly number[];
  /** A value's pixel position in the range. */
  at(value: number): number;
}

/** The round step (1, 2 or 5 times a power of ten) that cuts `span` into about `count` parts. */
function tickStep(span: number, count: number): number {
  const raw = span / Math.max(1, count);
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].map((m) => m * power).find((step) => step >= raw * (1 - 1e-9)) ??
    10 * power) as number;
}

/**
 * A scale over [min, max] onto [from, to] pixels, its domain widened to the nearest round ticks
 * (about `count` of them). An empty or one-point domain is widened by 1 on either side, or 0.5 for 0.
 */
export function linearScale(
  min: number,
  max: number,
  range: readonly [number, number],
  count = 5,
): LinearScale {
  let lo = Number.isFinite(min) ? min : 0;
  let hi = Number.isFinite(max) ? max : lo;
  if (hi < lo) [lo, hi] = [hi, lo];
  if (hi === lo) {
    const pad = lo === 0 ? 0.5 : Math.abs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  const step = tickStep(hi - lo, count);
  const start = Math.floor(lo / step + 1e-9) * step;
  const end = Math.ceil(hi / step - 1e-9) * step;
  const ticks: number[] = [];
  for (let i = 0; start + i * step <= end + step * 1e-9; i++)
    ticks.push(Number((start + i * step).toPrecision(12)));
  const [from, to] = range;
  return {
    domain: [start, end],
    ticks,
    at: (value) => from + ((value - start) / (end - start)) * (to - from),
  };
}

/** A tick label: up to 3 decimals, thousands as k and millions as M. */
export function tickLabel(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${Number((value / 1e6).toFixed(2))}M`;
  if (abs >= 1e4) return `${Number((value / 1e3).toFixed(1))}k`;
  return String(Number(value.toFixed(3)));
}
