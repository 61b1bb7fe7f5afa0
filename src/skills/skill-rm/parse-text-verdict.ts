/** A pairwise verdict in the shown positions: response A, response B, or a tie. */
export type ShownVerdict = 'A' | 'B' | 'tie';

/** What a text verdict says, and which form said it (for the trace). */
export interface TextVerdict {
  readonly verdict: ShownVerdict;
  /** `scaled` (A>>B … B>>A), `final` (Final: A), `brackets` ([[A]]), `json` (a winner/verdict field). */
  readonly form: 'scaled' | 'final' | 'brackets' | 'json';
  /** For scaled labels: `strong` (>>) or `slight` (>); absent for the other forms and for ties. */
  readonly strength?: 'strong' | 'slight';
}

/** A verdict word as a judge may write it: `A`, `b`, `Tie`, `C` (the `[[C]]` tie), `Response A`. */
export function verdictOfWord(word: unknown): ShownVerdict | undefined {
  if (typeof word !== 'string') return undefined;
  const w = word
    .trim()
    .toLowerCase()
    .replace(/^(response|assistant|answer)\s+/, '');
  if (w === 'a') return 'A';
  if (w === 'b') return 'B';
  if (w === 'tie' || w === 'c' || w === 'equal' || w === 'a=b') return 'tie';
  return undefined;
}

interface Found extends TextVerdict {
  readonly end: number;
}

function scaled(text: string): Found[] {
  const found: Found[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9])([AB])\s*(>>|>|=|<<|<)\s*([AB])(?![A-Za-z0-9])/g)) {
    const [, left, op, right] = m as unknown as [string, 'A' | 'B', string, 'A' | 'B'];
    if (left === right) continue;
    const end = (m.index ?? 0) + m[0].length;
    if (op === '=') {
      found.push({ verdict: 'tie', form: 'scaled', end });
      continue;
    }
    const better = op.startsWith('>') ? left : right;
    found.push({ verdict: better, form: 'scaled', strength: op.length === 2 ? 'strong' : 'slight', end });
  }
  return found;
}

function finalLines(text: string): Found[] {
  return [
    ...text.matchAll(/\bfinal(?:\s+(?:verdict|answer))?\s*\**\s*:\s*\**\s*\[?\s*(A|B|Tie)\b/gi),
  ].flatMap((m) => {
    const verdict = verdictOfWord(m[1]);
    return verdict ? [{ verdict, form: 'final' as const, end: (m.index ?? 0) + m[0].length }] : [];
  });
}

function brackets(text: string): Found[] {
  return [...text.matchAll(/\[\[\s*(A|B|C|Tie)\s*\]\]/gi)].flatMap((m) => {
    const verdict = verdictOfWord(m[1]);
    return verdict ? [{ verdict, form: 'brackets' as const, end: (m.index ?? 0) + m[0].length }] : [];
  });
}

/** Every balanced `{…}` of the text that parses as a JSON object, with where it ends. */
export function jsonObjectsIn(text: string): Array<{ value: Record<string, unknown>; end: number }> {
  const objects: Array<{ value: Record<string, unknown>; end: number }> = [];
  for (let start = text.indexOf('{'); start !== -1; start = text.indexOf('{', start + 1)) {
    let depth = 0;
    let inString = false;
    for (let i = start; i < text.length; i++) {
      const c = text[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
      } else if (c === '"') inString = true;
      else if (c === '{') depth++;
      else if (c === '}' && --depth === 0) {
        try {
          const value: unknown = JSON.parse(text.slice(start, i + 1));
          if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
            objects.push({ value: value as Record<string, unknown>, end: i + 1 });
          }
        } catch {
          // not JSON: keep scanning from the next brace
        }
        break;
      }
    }
  }
  return objects;
}

function jsonFields(text: string): Found[] {
  return jsonObjectsIn(text).flatMap(({ value, end }) => {
    const verdict = verdictOfWord(value.winner) ?? verdictOfWord(value.verdict);
    return verdict ? [{ verdict, form: 'json' as const, end }] : [];
  });
}

/**
 * A pairwise verdict read from free text, the fallback when a judge wrote no `final_answer`:
 * scaled labels (`A>>B`, `A>B`, `A=B`, `B>A`, `B>>A`), `Final: A|B|Tie`, `[[A]]` / `[[B]]` /
 * `[[C]]` (a tie), or a JSON object's `winner` or `verdict` field. When several appear, the last
 * one in the text wins (a judge's conclusion follows its reasoning); none gives `undefined`.
 */
export function parseTextVerdict(text: string): TextVerdict | undefined {
  const all = [...scaled(text), ...finalLines(text), ...brackets(text), ...jsonFields(text)];
  const last = all.reduce<Found | undefined>(
    (best, f) => (best === undefined || f.end >= best.end ? f : best),
    undefined,
  );
  if (last === undefined) return undefined;
  const { end: _end, ...verdict } = last;
  return verdict;
}
