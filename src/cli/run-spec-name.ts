import type { ResolvedSpec } from '../spec/index.js';

/**
 * The name a stored run shows for its spec (`runs list`, `view`): the spec's `name:`, or, for a spec
 * without one (parsed as the default "spec"), the file or preset it was loaded from.
 */
export function runSpecName(spec: ResolvedSpec, ref: string): string {
  return spec.name === 'spec' ? ref : spec.name;
}
