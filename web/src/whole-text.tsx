import { useState } from 'react';
import { getText } from './api';

/**
 * A stored text as sent, cut or not: when `chars` says it was cut, a button fetches the whole of
 * it from `path`. Always a text node, never markup.
 */
export function WholeText({
  text,
  chars,
  path,
  className = 'text',
}: {
  text: string;
  chars?: number;
  path: string;
  className?: string;
}) {
  const [whole, setWhole] = useState<string | undefined>();
  return (
    <>
      <pre className={className}>{whole ?? text}</pre>
      {chars !== undefined && whole === undefined && (
        <button type="button" onClick={() => getText(path).then(setWhole)}>
          Load all {chars.toLocaleString('en')} characters
        </button>
      )}
    </>
  );
}
