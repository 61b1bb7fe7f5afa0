import { escapeRegExp } from '../core/index.js';

/**
 * Matches a data_source against a route's names and `*` globs, as trainers spell dataset names:
 * case does not matter (`lighteval/MATH` is `math`), and a pattern without a `/` is matched
 * against what follows the name's last `/`, so a hub organisation does not matter either
 * (`openai/gsm8k` is `gsm8k`, `likaixin/TACO-verified` is `taco*`). A pattern with a `/` is
 * matched against the whole name.
 */
export function globMatcher(patterns: readonly string[]): (value: string) => boolean {
  const regexes = patterns.map((p) => ({
    regex: new RegExp(`^${p.split('*').map(escapeRegExp).join('.*')}$`, 'i'),
    whole: p.includes('/'),
  }));
  return (value) => {
    const name = value.slice(value.lastIndexOf('/') + 1);
    return regexes.some(({ regex, whole }) => regex.test(whole ? value : name));
  };
}
