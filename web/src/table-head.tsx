/** A grid's header row: one plain heading per column ('' for an unlabelled one). */
export function TableHead({ columns }: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a table's columns are fixed
          <th key={i}>{column}</th>
        ))}
      </tr>
    </thead>
  );
}
