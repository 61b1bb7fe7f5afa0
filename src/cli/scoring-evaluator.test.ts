import { describe, expect, test } from 'vitest';
import { loadSpec, type ResolvedSpec } from '../spec/index.js';
import { AUTO_WORKERS_MIN_ROWS, autoWorkers, isLightSpec, scoreWorkers } from './scoring-evaluator.js';

describe('scoreWorkers', () => {
  test.each([
    // flag, rows, cores, threads
    ['auto', AUTO_WORKERS_MIN_ROWS, 16, 8],
    ['auto', 1_000_000, 4, 3],
    ['auto', AUTO_WORKERS_MIN_ROWS, 2, 1],
    ['auto', AUTO_WORKERS_MIN_ROWS - 1, 16, 0],
    ['auto', undefined, 16, 0],
    ['auto', 1_000_000, 1, 0],
    [0, 1_000_000, 16, 0],
    [3, 10, 16, 3],
    [12, undefined, 2, 12],
  ] as const)('--workers %s with %s rows on %i cores: %i threads', (flag, rows, cores, threads) => {
    expect(scoreWorkers(flag, rows, { cores })).toBe(threads);
  });

  test.each([
    // rows, cores, threads for a light spec
    [AUTO_WORKERS_MIN_ROWS, 16, 2],
    [1_000_000, 64, 2],
    [AUTO_WORKERS_MIN_ROWS, 2, 0],
    [AUTO_WORKERS_MIN_ROWS, 3, 2],
    [AUTO_WORKERS_MIN_ROWS, 4, 2],
    [AUTO_WORKERS_MIN_ROWS - 1, 16, 0],
  ] as const)(
    '--workers auto for a spec of light sources, %s rows on %i cores: %i threads',
    (rows, cores, threads) => {
      expect(scoreWorkers('auto', rows, { cores, light: true })).toBe(threads);
      // A number is still taken as given.
      expect(scoreWorkers(6, rows, { cores, light: true })).toBe(6);
    },
  );

  test.each([
    ['the math preset', [['math']], true],
    ['format checks beside math', [['math', 'regex', 'length', 'json', 'tags']], true],
    ['code tests, which run programs', [['code']], false],
    ['a route of math and one of ifeval', [['math'], ['ifeval']], false],
  ] as const)('isLightSpec: %s → %s', (_name, routes, light) => {
    const leaf = (kinds: readonly string[]) =>
      ({ sources: kinds.map((kind) => ({ kind, params: {} })) }) as unknown as ResolvedSpec['default'];
    const spec = {
      name: 's',
      routes: routes.slice(1).map((kinds) => ({ data_source: ['x'], spec: leaf(kinds) })),
      default: leaf(routes[0] ?? []),
    } as unknown as ResolvedSpec;
    expect(isLightSpec(spec)).toBe(light);
  });

  test('the presets: math is light; the default routes code and IFEval too, so it is not', () => {
    expect(isLightSpec(loadSpec('math'))).toBe(true);
    expect(isLightSpec(loadSpec('default'))).toBe(false);
  });

  test('auto is the cores less the main thread, at least 1, at most 8', () => {
    expect([1, 2, 3, 9, 10, 64].map((cores) => autoWorkers(cores))).toEqual([1, 1, 2, 8, 8, 8]);
  });
});
