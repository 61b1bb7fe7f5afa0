import { globMatcher, type LeafSpec, type ResolvedSpec } from '../spec/index.js';

/** The leaf spec a sample with this data_source is scored by, as the evaluator routes it. */
export function leafOf(spec: ResolvedSpec, dataSource: string | undefined): LeafSpec | undefined {
  if (dataSource !== undefined) {
    const hit = spec.routes.find((route) => globMatcher(route.data_source)(dataSource));
    if (hit) return hit.spec;
  }
  return spec.default;
}
