import { describe, expect, it } from 'vitest';
import { parseSpec, sourceKinds, sourceName } from '../spec/index.js';
import { requireSpecModels, specModelNames } from './spec-model-names.js';

const spec = parseSpec(
  JSON.stringify({
    name: 'routed',
    routes: [
      {
        data_source: ['chat'],
        spec: {
          sources: [
            { kind: 'genrm', name: 'pair', params: { model: 'judge' } },
            { kind: 'length', params: { max: 100 } },
          ],
        },
      },
    ],
    default: {
      sources: [{ kind: 'evpv', params: { model: 'vlm', step_judge: 'steps' } }],
    },
  }),
  'routed',
);

describe('specModelNames', () => {
  it('should name every model the sources of every route name, with their source', () => {
    expect(specModelNames(spec, sourceKinds, sourceName)).toEqual([
      { source: 'pair', model: 'judge' },
      { source: 'evpv', model: 'vlm' },
      { source: 'evpv', model: 'steps' },
    ]);
  });
});

describe('requireSpecModels', () => {
  const names = specModelNames(spec, sourceKinds, sourceName);

  it('should pass when every model is configured', () => {
    expect(() =>
      requireSpecModels(
        names,
        new Map([
          ['judge', 1],
          ['vlm', 1],
          ['steps', 1],
        ]),
        'm.yaml',
      ),
    ).not.toThrow();
  });

  it('should name every missing model and what is configured', () => {
    expect(() => requireSpecModels(names, new Map([['vlm', 1]]), 'm.yaml')).toThrow(
      'source "pair" needs model "judge", source "evpv" needs model "steps"; configured in m.yaml: vlm',
    );
  });

  it('should say how to configure a model when none is', () => {
    expect(() => requireSpecModels(names, new Map(), '')).toThrow(
      /^source "pair" needs model "judge", source "evpv" needs model "vlm", source "evpv" needs model "steps"; no model is configured: pass --models <file>/,
    );
  });
});
