import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { globMatcher } from './glob-matcher.js';
import { loadSpec } from './parse-spec.js';

interface TrainerName {
  readonly data_source: string;
  readonly route: string;
}
// The names verl's default_compute_score dispatches on, and those of TRL's and OpenRLHF's
// examples, with the preset each must reach (the file cites where each list was read).
const names = JSON.parse(
  readFileSync(new URL('../../test/fixtures/routing/trainer-data-sources.json', import.meta.url), 'utf8'),
) as { verl: TrainerName[]; examples: TrainerName[] };

const spec = loadSpec('default');
/** The leaf a data_source reaches in the `default` preset, by name; `default` for the fallback. */
const routeOf = (dataSource: string) =>
  spec.routes.find((route) => globMatcher(route.data_source)(dataSource))?.spec.name ?? 'default';

describe('the default preset routes the names trainers use', () => {
  test.each(names.verl)("verl's $data_source reaches $route", ({ data_source, route }) => {
    expect(routeOf(data_source)).toBe(route);
  });
  test.each(names.examples)('$data_source reaches $route', ({ data_source, route }) => {
    expect(routeOf(data_source)).toBe(route);
  });
  test.each(
    names.verl.flatMap(({ data_source, route }) => {
      const bare = data_source.slice(data_source.lastIndexOf('/') + 1);
      return [
        { data_source: data_source.toUpperCase(), route },
        { data_source: data_source.toLowerCase(), route },
        { data_source: bare, route },
        { data_source: `some-org/${bare}`, route },
      ];
    }),
  )('$data_source (case and organisation changed) still reaches $route', ({ data_source, route }) => {
    expect(routeOf(data_source)).toBe(route);
  });
  test('a name no trainer dispatches falls to the default route', () => {
    expect(routeOf('Rowan/hellaswag')).toBe('default');
    expect(routeOf('my_private_set')).toBe('default');
  });
});

describe('routing does not depend on how a name is spelled', () => {
  const letters = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.');
  test('any hub organisation and any mix of case reach the route the bare name reaches', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...names.verl, ...names.examples),
        fc.string({ unit: letters, minLength: 1, maxLength: 20 }),
        fc.infiniteStream(fc.boolean()),
        ({ data_source, route }, org, upper) => {
          const bare = data_source.slice(data_source.lastIndexOf('/') + 1);
          const cased = [...bare]
            .map((ch) => (upper.next().value ? ch.toUpperCase() : ch.toLowerCase()))
            .join('');
          expect(routeOf(`${org}/${cased}`)).toBe(route);
        },
      ),
      { numRuns: 500 },
    );
  });
});
