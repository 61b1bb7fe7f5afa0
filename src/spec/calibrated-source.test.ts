import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { createEvaluator } from './evaluator.js';
import { loadSpec, parseSpec } from './parse-spec.js';
import { defineSourceKind, type SourceKind } from './source-kind.js';
import { sourceKinds } from './source-kinds.js';
import { SpecError } from './spec-error.js';
import type { SourceConfig } from './spec-schema.js';

const constKind = defineSourceKind({
  kind: 'const',
  description: 'scores a fixed value',
  params: z.strictObject({ score: z.number() }),
  create: (p) => () => ({ score: p.score, verdict: p.score >= 1 ? 'pass' : 'fail' }),
});
const registry = new Map<string, SourceKind>([...sourceKinds, ['const', constKind as SourceKind]]);

const dir = mkdtempSync(join(tmpdir(), 'rk-calibrated-source-'));
mkdirSync(join(dir, 'maps'));
const write = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
write('maps/platt.json', JSON.stringify({ version: 1, method: 'platt', fitted_on: { n: 10 }, a: 2, b: -1 }));
write(
  'maps/isotonic.json',
  JSON.stringify({
    version: 1,
    method: 'isotonic',
    fitted_on: { n: 10 },
    knots: { x: [0, 10], y: [0.2, 0.8] },
  }),
);
const specWith = (name: string, calibration: string, score = 1) =>
  write(
    name,
    `name: calibrated
sources:
  - kind: const
    name: judge
    params: { score: ${score} }
    calibration: ${calibration}
  - kind: const
    name: plain
    weight: 0
    params: { score: ${score} }
`,
  );

describe('a source with a calibration map', () => {
  test.each([
    { map: 'maps/platt.json', score: 1, calibrated: 1 / (1 + Math.exp(-1)) },
    { map: 'maps/isotonic.json', score: 5, calibrated: 0.5 },
    { map: 'maps/isotonic.json', score: 20, calibrated: 0.8 },
  ])(
    'scores through $map (raw $score → $calibrated), path relative to the spec',
    async ({ map, score, calibrated }) => {
      const spec = loadSpec(specWith('spec.yaml', map, score), registry);
      const evaluator = createEvaluator(spec, { registry });
      const result = await evaluator.evaluate({ id: 's1', response: 'r', metadata: {} });
      await evaluator.close();
      expect(result.reward).toBeCloseTo(calibrated, 12);
      expect(result.components.judge).toBeCloseTo(calibrated, 12);
      expect(result.evidence[0]).toMatchObject({ source: 'judge', raw_score: score });
      expect(result.evidence[0]?.score).toBeCloseTo(calibrated, 12);
      // An uncalibrated source keeps its score and records no raw one.
      expect(result.evidence[1]?.score).toBe(score);
      expect(result.evidence[1]).not.toHaveProperty('raw_score');
    },
  );

  test('the resolved spec carries the map itself, so it parses again without the file', () => {
    const spec = loadSpec(specWith('inline.yaml', 'maps/platt.json'), registry);
    expect(spec.default?.sources[0]?.calibration).toEqual({
      version: 1,
      method: 'platt',
      fitted_on: { n: 10 },
      a: 2,
      b: -1,
    });
    const again = parseSpec(JSON.stringify(spec.default), '/elsewhere/spec.json', registry);
    expect(again.default?.sources[0]?.calibration).toEqual(spec.default?.sources[0]?.calibration);
  });

  test('a missing map is a spec error at load time, naming the path and line', () => {
    const file = specWith('missing.yaml', 'maps/nope.json');
    expect(() => loadSpec(file, registry)).toThrow(SpecError);
    expect(() => loadSpec(file, registry)).toThrow(
      `Cannot use calibration map "maps/nope.json": ${join(dir, 'maps/nope.json')}: no such file`,
    );
    try {
      loadSpec(file, registry);
    } catch (error) {
      expect((error as SpecError).issues[0]).toMatchObject({
        code: 'calibration',
        path: ['sources', 0, 'calibration'],
        position: { line: 6 },
      });
    }
  });

  test('a malformed map is a spec error naming the map file and field', () => {
    write(
      'maps/bad.json',
      JSON.stringify({ version: 1, method: 'platt', fitted_on: { n: 3 }, a: 'x', b: 0 }),
    );
    expect(() => loadSpec(specWith('bad.yaml', 'maps/bad.json'), registry)).toThrow(
      `${join(dir, 'maps/bad.json')}: a: `,
    );
  });

  test('an evaluator refuses a spec whose calibration is still a path', () => {
    const leaf = parseSpec('sources: [{kind: const, params: {score: 1}}]', 'x.yaml', registry).default;
    if (!leaf) throw new Error('expected a leaf spec');
    const source = { ...(leaf.sources[0] as SourceConfig), calibration: 'm.json' };
    const spec = { name: 'raw', routes: [], default: { ...leaf, sources: [source] } };
    expect(() => createEvaluator(spec, { registry })).toThrow(/calibration "m.json" is a path/);
  });
});
