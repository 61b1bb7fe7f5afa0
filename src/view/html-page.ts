import { escapeHtml } from './escape-html.js';

const STYLE = `body{font-family:system-ui,sans-serif;font-size:14px;color:#1d232a;margin:2rem}
table{border-collapse:collapse;margin:.5rem 0}th,td{border:1px solid #dde1e6;padding:.25rem .5rem;text-align:left;vertical-align:top}
th{background:#eef1f4}.n{text-align:right;font-variant-numeric:tabular-nums}.figs{display:flex;flex-wrap:wrap;gap:1rem}
figure{margin:0;border:1px solid #dde1e6;padding:.4rem}figcaption{font-weight:600;margin-bottom:.2rem}
.axis{display:flex;justify-content:space-between;color:#6b7480;font-size:.8rem}td.text{white-space:pre-wrap;max-width:40rem}
td.ours,th.ours{border-left:3px solid #6b7480}.muted{color:#6b7480}pre{background:#f4f6f8;padding:.5rem;overflow:auto;max-width:60rem}
svg text{font-family:system-ui,sans-serif}`;

/**
 * The shell of every self-contained HTML report: inline CSS, no script, and a
 * `Content-Security-Policy` that forbids any request, so the file can be attached anywhere. `body`
 * is markup built by the report builders, with every value from data already escaped.
 */
export function htmlPage(page: { readonly title: string; readonly body: string }): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${escapeHtml(page.title)}</title><style>${STYLE}</style></head><body>
${page.body}
</body></html>
`;
}
