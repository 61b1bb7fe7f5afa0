import { DetailTree } from './detail-tree';

/** Keys under which judges keep the two orders of a pairwise comparison. */
const ORDER_PAIRS: [string, string][] = [
  ['forward', 'reverse'],
  ['ab', 'ba'],
  ['original', 'swapped'],
];

/** A source's detail as stored, as a tree: a pairwise judge's two orders side by side, then the rest. */
export function RawDetail({ detail }: { detail: unknown }) {
  const record =
    typeof detail === 'object' && detail !== null && !Array.isArray(detail)
      ? (detail as Record<string, unknown>)
      : undefined;
  const pair = record
    ? ORDER_PAIRS.find(([a, b]) => record[a] !== undefined && record[b] !== undefined)
    : undefined;
  const rest =
    pair && record ? Object.fromEntries(Object.entries(record).filter(([k]) => !pair.includes(k))) : detail;
  return (
    <>
      {pair && record && (
        <div className="orders">
          {pair.map((key) => (
            <div key={key}>
              <h4>{key}</h4>
              <DetailTree value={record[key]} />
            </div>
          ))}
        </div>
      )}
      {rest !== undefined && <DetailTree value={rest} />}
    </>
  );
}
