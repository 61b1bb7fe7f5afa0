import { type LinearScale, linearScale, tickLabel } from './chart-scale.js';

/**
 * A line chart as shapes: the paths, ticks and labels both renderers draw — the HTML reports as an
 * SVG string (line-chart-svg.ts) and the web app as React elements (web/src/line-chart.tsx).
 */

export interface LinePoint {
  readonly x: number;
  readonly y: number;
}

export interface LineSeries {
  readonly name: string;
  readonly points: readonly LinePoint[];
}

export interface LineChartInput {
  readonly series: readonly LineSeries[];
  /** A shaded band behind the lines (e.g. each bucket's min to max). */
  readonly band?: readonly { readonly x: number; readonly low: number; readonly high: number }[];
  readonly xLabel: string;
  readonly yLabel: string;
  /** Fixed x range (e.g. time from 0); default the data's. */
  readonly xDomain?: readonly [number, number];
  /** Fixed y range (e.g. [0, 1] for shares); default the data's. */
  readonly yDomain?: readonly [number, number];
  readonly width?: number;
  readonly height?: number;
}

export interface ChartTick {
  readonly at: number;
  readonly label: string;
}

export interface LineChartLayout {
  readonly width: number;
  readonly height: number;
  /** The plot area: x from `left` to `right`, y from `top` to `bottom` (pixels). */
  readonly plot: {
    readonly left: number;
    readonly right: number;
    readonly top: number;
    readonly bottom: number;
  };
  readonly xTicks: readonly ChartTick[];
  readonly yTicks: readonly ChartTick[];
  readonly xLabel: string;
  readonly yLabel: string;
  /** One SVG path (`d`) per series, with its colour and its points in pixels. */
  readonly lines: readonly {
    readonly name: string;
    readonly color: string;
    readonly d: string;
    readonly points: readonly { readonly x: number; readonly y: number; readonly title: string }[];
  }[];
  /** The band as one closed SVG path, if any. */
  readonly band?: string;
}

/** Colours of the series, in order (the inspector's blue first). */
export const SERIES_COLORS = ['#0b5cad', '#d0632b', '#2f8f4e', '#8a3ea8', '#6b7480'] as const;

const MARGIN = { left: 48, right: 12, top: 10, bottom: 34 };

const pathOf = (points: readonly { x: number; y: number }[]) =>
  points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x.toFixed(1)},${p.y.toFixed(1)}`).join('');

/** Lays out a line chart: scales from the data (or `yDomain`), round ticks, one path per series. */
export function lineChartLayout(input: LineChartInput): LineChartLayout {
  const width = input.width ?? 420;
  const height = input.height ?? 180;
  const plot = {
    left: MARGIN.left,
    right: width - MARGIN.right,
    top: MARGIN.top,
    bottom: height - MARGIN.bottom,
  };
  const xs = input.xDomain
    ? [...input.xDomain]
    : input.series.flatMap((s) => s.points.map((p) => p.x)).concat((input.band ?? []).map((b) => b.x));
  const ys = input.yDomain
    ? [...input.yDomain]
    : input.series
        .flatMap((s) => s.points.map((p) => p.y))
        .concat((input.band ?? []).flatMap((b) => [b.low, b.high]));
  const x: LinearScale = linearScale(Math.min(...xs), Math.max(...xs), [plot.left, plot.right], 5);
  const y: LinearScale = linearScale(Math.min(...ys), Math.max(...ys), [plot.bottom, plot.top], 4);
  const pixel = (p: LinePoint) => ({ x: x.at(p.x), y: y.at(p.y) });
  const band = input.band && input.band.length > 0 ? input.band : undefined;
  return {
    width,
    height,
    plot,
    xTicks: x.ticks.map((t) => ({ at: x.at(t), label: tickLabel(t) })),
    yTicks: y.ticks.map((t) => ({ at: y.at(t), label: tickLabel(t) })),
    xLabel: input.xLabel,
    yLabel: input.yLabel,
    lines: input.series.map((s, i) => ({
      name: s.name,
      color: SERIES_COLORS[i % SERIES_COLORS.length] as string,
      d: pathOf(s.points.map(pixel)),
      points: s.points.map((p) => ({
        ...pixel(p),
        title: `${s.name}: ${tickLabel(p.y)} at ${tickLabel(p.x)}`,
      })),
    })),
    ...(band && {
      band: `${pathOf([
        ...band.map((b) => pixel({ x: b.x, y: b.high })),
        ...[...band].reverse().map((b) => pixel({ x: b.x, y: b.low })),
      ])}Z`,
    }),
  };
}
