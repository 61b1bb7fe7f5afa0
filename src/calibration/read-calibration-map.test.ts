import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { applyCalibration } from './calibration-map.js';
import { fitCalibrationMap } from './fit-calibration-map.js';
import { loadCalibrationMap, readCalibrationMap } from './read-calibration-map.js';

const dir = mkdtempSync(join(tmpdir(), 'rk-calibration-map-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('readCalibrationMap', () => {
  test.each(['isotonic', 'platt'] as const)('a fitted %s map round-trips through its file', (method) => {
    const points = [0.1, 0.4, 0.6, 0.9].map((score, i) => ({ score, label: i % 2 === 0 ? 0 : 1 }));
    const map = fitCalibrationMap(points, method, { source: 'judge' });
    const loaded = loadCalibrationMap(file(`${method}.json`, JSON.stringify(map)));
    expect(loaded).toEqual(map);
    expect(loaded.fitted_on).toEqual({ n: 4, source: 'judge' });
    expect(applyCalibration(loaded, 0.5)).toBe(applyCalibration(map, 0.5));
  });

  test.each([
    { name: 'missing.json', text: undefined, problem: 'missing.json: no such file' },
    { name: 'text.json', text: 'nope', problem: 'text.json: not JSON' },
    {
      name: 'method.json',
      text: '{"version":1,"method":"beta","fitted_on":{"n":3}}',
      problem: 'method.json: method: ',
    },
    {
      name: 'knots.json',
      text: '{"version":1,"method":"isotonic","fitted_on":{"n":3},"knots":{"x":[0,1,1],"y":[0,0.5,0.4]}}',
      problem: 'knots.json: knots.x[2]: expected x to increase strictly; ',
    },
    {
      name: 'platt.json',
      text: '{"version":1,"method":"platt","fitted_on":{"n":0},"a":"1","b":0}',
      problem: 'platt.json: fitted_on.n: ',
    },
  ])('names the file and field: $name', ({ name, text, problem }) => {
    const path = text === undefined ? join(dir, name) : file(name, text);
    const result = readCalibrationMap(path);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problem).toContain(join(dir, problem));
    expect(() => loadCalibrationMap(path)).toThrow(/bad calibration map/);
  });

  test('every field problem is listed', () => {
    const path = file('two.json', '{"version":1,"method":"platt","fitted_on":{"n":0},"a":"1","b":0}');
    const result = readCalibrationMap(path);
    expect(!result.ok && result.problem).toContain(`${path}: a: `);
  });
});
