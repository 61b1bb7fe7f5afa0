import { useMemo } from 'react';
import { wordDiff } from '../../src/view/word-diff.js';

/**
 * Two texts side by side with a word-level diff: A's words that B lacks are struck on the left,
 * B's words that A lacks marked on the right. Every part is a text node, so markup stays text.
 */
export function WordDiffView({ a, b }: { a: string; b: string }) {
  const diff = useMemo(() => wordDiff(a, b), [a, b]);
  const changed = diff.parts.some((p) => p.op !== 'same');
  return (
    <div className="word-diff">
      {!changed && <p className="muted">The two responses are the same.</p>}
      {diff.bounded && (
        <p className="muted">
          The changed middle is too long to align word by word: shown as one removal and one insertion.
        </p>
      )}
      <div className="side-by-side">
        <pre className="text diff-a" data-side="a">
          {diff.parts.map((p, i) =>
            p.op === 'ins' ? null : p.op === 'del' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never reorder
              <del key={i}>{p.text}</del>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never reorder
              <span key={i}>{p.text}</span>
            ),
          )}
        </pre>
        <pre className="text diff-b" data-side="b">
          {diff.parts.map((p, i) =>
            p.op === 'del' ? null : p.op === 'ins' ? (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never reorder
              <ins key={i}>{p.text}</ins>
            ) : (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one diff never reorder
              <span key={i}>{p.text}</span>
            ),
          )}
        </pre>
      </div>
    </div>
  );
}
