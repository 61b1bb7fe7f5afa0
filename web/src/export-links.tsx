import { enc } from './api';

/** Downloads of the rows the table shows (the same filters and sort), every page of them. */
export function ExportLinks({ runId, query }: { runId: string; query: string }) {
  const link = (format: 'jsonl' | 'csv') =>
    `api/runs/${enc(runId)}/export?${query}${query === '' ? '' : '&'}format=${format}`;
  return (
    <p id="export-links">
      Export these rows:{' '}
      <a href={link('jsonl')} download>
        JSONL
      </a>{' '}
      ·{' '}
      <a href={link('csv')} download>
        CSV
      </a>
    </p>
  );
}
