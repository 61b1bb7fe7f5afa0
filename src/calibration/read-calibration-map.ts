import { readFileSync } from 'node:fs';
import { RewardKitError } from '../core/index.js';
import { type CalibrationMap, CalibrationMapSchema } from './calibration-map.js';

export type CalibrationMapResult = { ok: true; map: CalibrationMap } | { ok: false; problem: string };

/**
 * Reads and validates a calibration map file. The problem, when there is one, names the file and
 * the field (`map.json: knots.y[3]: expected y never to decrease`).
 */
export function readCalibrationMap(file: string): CalibrationMapResult {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      ok: false,
      problem: `${file}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `${file}: not JSON: ${(error as Error).message}` };
  }
  const parsed = CalibrationMapSchema.safeParse(value);
  if (parsed.success) return { ok: true, map: parsed.data };
  const issues = parsed.error.issues.map((issue) => {
    const field = issue.path
      .map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`))
      .join('');
    return `${file}: ${field === '' ? '(document)' : field}: ${issue.message}`;
  });
  return { ok: false, problem: issues.join('; ') };
}

/** `readCalibrationMap`, throwing RK_USAGE with the file and field named. */
export function loadCalibrationMap(file: string): CalibrationMap {
  const result = readCalibrationMap(file);
  if (!result.ok) throw new RewardKitError('RK_USAGE', `bad calibration map ${result.problem}`);
  return result.map;
}
