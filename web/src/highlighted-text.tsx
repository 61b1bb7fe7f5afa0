/**
 * Text with one substring marked (the extracted answer in a response). Rendered as React text
 * nodes, never as HTML: markup in a model's output shows as the characters it is.
 */
export function HighlightedText({ text, mark }: { text: string; mark: string | undefined }) {
  const at = mark ? text.lastIndexOf(mark) : -1;
  if (!mark || at < 0) return <pre className="text">{text}</pre>;
  return (
    <pre className="text">
      {text.slice(0, at)}
      <mark title="extracted answer">{mark}</mark>
      {text.slice(at + mark.length)}
    </pre>
  );
}

/** The answer a source extracted from the response, from the detail fields verifiers write. */
export function extractedAnswer(details: unknown[]): string | undefined {
  for (const detail of details) {
    if (typeof detail !== 'object' || detail === null) continue;
    for (const key of ['extracted', 'extracted_answer', 'answer', 'prediction']) {
      const value = (detail as Record<string, unknown>)[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  }
  return undefined;
}
