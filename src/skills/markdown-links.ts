import { fencedLines } from './markdown-fences.js';

/** A link in a markdown text: its target as written (without `#fragment`) and its 1-based line. */
export interface MarkdownLink {
  readonly target: string;
  readonly line: number;
}

const INLINE = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const DEFINITION = /^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$/;

/**
 * The links of a markdown text to local files: inline links and images, and reference-style link
 * definitions. Links inside fenced code, URLs with a scheme (`https:`, `mailto:`) and
 * fragment-only links (`#section`) are not links to package files.
 */
export function localLinks(text: string, firstLine = 1): MarkdownLink[] {
  const lines = text.split('\n');
  const fenced = fencedLines(lines);
  const links: MarkdownLink[] = [];
  lines.forEach((line, i) => {
    if (fenced[i]) return;
    const targets = [...line.matchAll(INLINE)].map((m) => m[1] as string);
    const definition = DEFINITION.exec(line)?.[1];
    if (definition !== undefined) targets.push(definition);
    for (const raw of targets) {
      const target = decodeTarget(raw.split('#')[0] as string);
      if (target === '' || (/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(target) && !/^[a-zA-Z]:[\\/]/.test(target)))
        continue;
      links.push({ target, line: firstLine + i });
    }
  });
  return links;
}

function decodeTarget(target: string): string {
  try {
    return decodeURI(target);
  } catch {
    return target;
  }
}
