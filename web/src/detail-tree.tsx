import { TableHead } from './table-head';

/** Any JSON value as nested lists and tables: arrays of like objects become tables. All as text. */
export function DetailTree({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">—</span>;
  if (typeof value === 'string') {
    return value.length > 120 || value.includes('\n') ? (
      <pre className="text">{value}</pre>
    ) : (
      <span>{value}</span>
    );
  }
  if (typeof value !== 'object') return <span className="n">{String(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span className="muted">[]</span>;
    const rows = value.filter((v) => typeof v === 'object' && v !== null && !Array.isArray(v)) as Record<
      string,
      unknown
    >[];
    if (rows.length === value.length) {
      const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
      return (
        <table className="grid detail">
          <TableHead columns={columns} />
          <tbody>
            {rows.map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows of a stored array never reorder
              <tr key={i}>
                {columns.map((c) => (
                  <td key={c}>
                    <DetailTree value={row[c]} />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    return (
      <ol>
        {value.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: items of a stored array never reorder
          <li key={i}>
            <DetailTree value={v} />
          </li>
        ))}
      </ol>
    );
  }
  return (
    <dl className="tree">
      {Object.entries(value as Record<string, unknown>).map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>
            <DetailTree value={v} />
          </dd>
        </div>
      ))}
    </dl>
  );
}
