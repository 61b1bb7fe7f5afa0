import { RewardKitError } from '../core/index.js';
import type { ResolvedSpec, SourceConfig, SourceKindRegistry } from '../spec/index.js';
import { modelParamNames } from './params-flags.js';

/** Every model a spec's sources name, with the source that names it (`writing.judge`). */
export function specModelNames(
  spec: ResolvedSpec,
  registry: SourceKindRegistry,
  sourceName: (source: SourceConfig) => string,
): { source: string; model: string }[] {
  const leaves = [...spec.routes.map((route) => route.spec), ...(spec.default ? [spec.default] : [])];
  const modelsOf = (source: { kind: string; params: Record<string, unknown> }): string[] => {
    const kind = registry.get(source.kind);
    if (!kind) return [];
    // A panel's params name no model of their own: its judges do.
    return kind.inner
      ? kind.inner(source.params).flatMap(modelsOf)
      : modelParamNames(kind.params, source.params);
  };
  return leaves.flatMap((leaf) =>
    leaf.sources.flatMap((source) =>
      [...new Set(modelsOf(source))].map((model) => ({ source: sourceName(source), model })),
    ),
  );
}

/**
 * Refuses, before the first row, a spec whose sources name a model that is not configured: a
 * judge without its model would fail every row one by one.
 */
export function requireSpecModels(
  names: readonly { source: string; model: string }[],
  configured: ReadonlyMap<string, unknown>,
  from: string,
): void {
  const missing = names.filter(({ model }) => !configured.has(model));
  if (missing.length === 0) return;
  const list = missing.map(({ source, model }) => `source "${source}" needs model "${model}"`).join(', ');
  const known =
    configured.size === 0
      ? 'no model is configured: pass --models <file>, set REWARDKIT_MODELS, or define REWARDKIT_MODEL_<NAME>_BASE_URL and REWARDKIT_MODEL_<NAME>_MODEL'
      : `configured in ${from}: ${[...configured.keys()].join(', ')}`;
  throw new RewardKitError('RK_UNKNOWN_MODEL', `${list}; ${known}`);
}
