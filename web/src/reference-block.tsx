import { useState } from 'react';
import { getText } from './api';
import { RichText, type TextMode } from './rich-text';

/** Characters of each reference shown before a click asks for the rest: the response is the focus. */
const REFERENCE_PREVIEW_CHARS = 2000;

/**
 * The answer a sample was judged against, one block per reference, rendered or raw as `mode` says.
 * A long reference shows its start; one too long for the detail is loaded from `textPath`.
 */
export function ReferenceBlock({
  reference,
  truncated,
  textPath,
  mode,
}: {
  reference: string | string[] | undefined;
  truncated: boolean;
  textPath: string;
  mode: TextMode;
}) {
  const [loaded, setLoaded] = useState<string | undefined>();
  const [open, setOpen] = useState(false);
  if (truncated && loaded === undefined)
    return (
      <button type="button" onClick={() => getText(`${textPath}?field=reference`).then(setLoaded)}>
        Load the reference (large)
      </button>
    );
  const references =
    loaded !== undefined ? [loaded] : typeof reference === 'string' ? [reference] : reference;
  if (!references || references.length === 0) return <p className="muted">none</p>;
  const long = references.some((r) => r.length > REFERENCE_PREVIEW_CHARS);
  return (
    <div id="reference">
      {references.map((r, i) => (
        <RichText
          // biome-ignore lint/suspicious/noArrayIndexKey: a sample's references never reorder
          key={i}
          text={open || r.length <= REFERENCE_PREVIEW_CHARS ? r : `${r.slice(0, REFERENCE_PREVIEW_CHARS)}…`}
          mode={mode}
        />
      ))}
      {long && !open && (
        <button type="button" onClick={() => setOpen(true)}>
          Show the whole reference
        </button>
      )}
    </div>
  );
}
