/** Flags, warnings or findings of a judgment as a list; nothing when there are none. */
export function NoteList({
  items,
  className = 'warnings',
}: {
  items: readonly string[] | undefined;
  className?: string;
}) {
  if (!items || items.length === 0) return null;
  return (
    <ul className={className}>
      {items.map((item, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: a stored list never reorders, and may repeat
        <li key={i}>{item}</li>
      ))}
    </ul>
  );
}
