import type { RetrievedDoc } from './retriever.js';

/**
 * Documents as a search agent reads them: `Doc 1 (Title: <first line>) <the rest>`, one per line.
 * The first line of `contents` is the title, as in the Search-R1 / SSP corpora.
 */
export function renderDocuments(docs: readonly Pick<RetrievedDoc, 'contents'>[]): string {
  return docs
    .map((doc, i) => {
      const newline = doc.contents.indexOf('\n');
      const title = newline < 0 ? doc.contents : doc.contents.slice(0, newline);
      const rest = newline < 0 ? '' : doc.contents.slice(newline + 1).replace(/\s*\n\s*/g, ' ');
      return `Doc ${i + 1} (Title: ${title.trim()}) ${rest.trim()}`.trimEnd();
    })
    .join('\n');
}
