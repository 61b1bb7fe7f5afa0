import type { Histogram } from './api';
import { num } from './format';

const WIDTH = 260;
const HEIGHT = 90;

/** One reward histogram as an SVG bar chart, the range under it. */
export function HistogramChart({ histogram }: { histogram: Histogram }) {
  const peak = Math.max(1, ...histogram.counts);
  const bar = WIDTH / histogram.counts.length;
  const total = histogram.counts.reduce((a, b) => a + b, 0);
  return (
    <figure className="histogram">
      <figcaption>
        {histogram.source ?? 'reward'} <span className="muted">({total})</span>
      </figcaption>
      <svg
        width={WIDTH}
        height={HEIGHT}
        role="img"
        aria-label={`histogram of ${histogram.source ?? 'reward'}`}
      >
        {histogram.counts.map((count, i) => {
          const h = (count / peak) * (HEIGHT - 4);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: bins are positional and fixed in number
            <rect key={i} x={i * bar + 1} y={HEIGHT - h} width={Math.max(1, bar - 2)} height={h}>
              <title>{`${count}`}</title>
            </rect>
          );
        })}
      </svg>
      <div className="axis">
        <span>{num(histogram.min)}</span>
        <span>{num(histogram.max)}</span>
      </div>
    </figure>
  );
}
