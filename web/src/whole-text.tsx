import { useState } from 'react';
import { getText } from './api';
import { RichText, type TextMode } from './rich-text';

/**
 * A stored text, cut or not: when `chars` says it was cut, a button fetches the whole of it from
 * `path`. As sent (a text node) unless `mode` asks for it rendered.
 */
export function WholeText({
  text,
  chars,
  path,
  className = 'text',
  mode = 'raw',
}: {
  text: string;
  chars?: number;
  path: string;
  className?: string;
  mode?: TextMode;
}) {
  const [whole, setWhole] = useState<string | undefined>();
  return (
    <>
      {mode === 'raw' ? (
        <pre className={className}>{whole ?? text}</pre>
      ) : (
        <RichText text={whole ?? text} mode={mode} />
      )}
      {chars !== undefined && whole === undefined && (
        <button type="button" onClick={() => getText(path).then(setWhole)}>
          Load all {chars.toLocaleString('en')} characters
        </button>
      )}
    </>
  );
}
