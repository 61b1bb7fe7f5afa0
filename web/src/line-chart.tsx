import { type LineChartInput, lineChartLayout } from '../../src/view/line-chart-layout.js';

/** Points drawn as dots up to this many per series; more make a plain line. */
const MAX_DOTS = 60;

/**
 * A line chart as SVG elements, from the same layout as the HTML reports' charts
 * (src/view/line-chart-layout.ts): axes with round ticks, a band, a legend for several series.
 */
export function LineChart({ id, caption, input }: { id: string; caption: string; input: LineChartInput }) {
  const l = lineChartLayout(input);
  const { left, right, top, bottom } = l.plot;
  const middle = (top + bottom) / 2;
  return (
    <figure className="chart" id={id}>
      <figcaption>{caption}</figcaption>
      <svg width={l.width} height={l.height} role="img" aria-label={`${input.yLabel} over ${input.xLabel}`}>
        {l.band && <path d={l.band} fill="#0b5cad" fillOpacity={0.12} stroke="none" />}
        {l.yTicks.map((t) => (
          <g key={`y${t.label}`}>
            <line x1={left} x2={right} y1={t.at} y2={t.at} stroke="#e6e9ed" />
            <text x={left - 4} y={t.at + 4} textAnchor="end" fontSize={10} fill="#6b7480">
              {t.label}
            </text>
          </g>
        ))}
        {l.xTicks.map((t) => (
          <g key={`x${t.label}`}>
            <line x1={t.at} x2={t.at} y1={bottom} y2={bottom + 4} stroke="#6b7480" />
            <text x={t.at} y={bottom + 15} textAnchor="middle" fontSize={10} fill="#6b7480">
              {t.label}
            </text>
          </g>
        ))}
        <line x1={left} x2={right} y1={bottom} y2={bottom} stroke="#6b7480" />
        <text x={(left + right) / 2} y={l.height - 4} textAnchor="middle" fontSize={11}>
          {l.xLabel}
        </text>
        <text x={12} y={middle} textAnchor="middle" fontSize={11} transform={`rotate(-90 12 ${middle})`}>
          {l.yLabel}
        </text>
        {l.lines.map((line) => (
          <g key={line.name} data-series={line.name}>
            <path d={line.d} fill="none" stroke={line.color} strokeWidth={1.6} />
            {line.points.length <= MAX_DOTS &&
              line.points.map((p) => (
                <circle key={`${p.x},${p.y}`} cx={p.x} cy={p.y} r={2.2} fill={line.color}>
                  <title>{p.title}</title>
                </circle>
              ))}
          </g>
        ))}
        {l.lines.length > 1 &&
          l.lines.map((line, i) => (
            <g key={`legend-${line.name}`}>
              <rect x={right - 110} y={top + 4 + i * 13} width={9} height={9} fill={line.color} />
              <text x={right - 97} y={top + 12 + i * 13} fontSize={10}>
                {line.name}
              </text>
            </g>
          ))}
      </svg>
    </figure>
  );
}
