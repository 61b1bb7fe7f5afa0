import type { ResolvedSpec } from '../spec/index.js';
import { OTHER_SOURCES } from './run-summary.js';

/**
 * The line a command prints the first time rows of a data_source reach a routed spec's default
 * branch: an unrouted dataset is scored by the fallback (for `default`, reference exact match),
 * which is rarely what its rows need, so it is said while the run goes on, once per source.
 */
export function defaultRouteWarning(spec: ResolvedSpec, dataSource: string | null): string {
  const fallback = `the default route${spec.default ? ` (${spec.default.name})` : ''}`;
  if (dataSource === OTHER_SOURCES) {
    return `rows of further data_sources reach ${fallback} of spec "${spec.name}"; the summary counts them together under "${OTHER_SOURCES}"`;
  }
  if (dataSource === null) {
    return `rows with no data_source are scored by ${fallback} of spec "${spec.name}"; give them a data_source, or score them with a spec of their own`;
  }
  return `data_source "${dataSource}" matches no route of spec "${spec.name}": its rows are scored by ${fallback}; add a route for it if they need another check`;
}
