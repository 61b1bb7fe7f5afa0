import { num } from '../format';

/** A row of labelled figures (`—` for one that is missing or does not apply). */
export function FigureList({
  items,
}: {
  items: [label: string, value: number | string | null | undefined][];
}) {
  return (
    <dl className="figures">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{typeof value === 'number' || value === null || value === undefined ? num(value) : value}</dd>
        </div>
      ))}
    </dl>
  );
}
