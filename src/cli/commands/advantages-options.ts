import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { errorMessage, RewardKitError } from '../../core/index.js';

/**
 * The value of `--options`: inline JSON (starts with `{`), or a JSON / YAML file. Only read here;
 * the method's schema checks the keys and applies the defaults.
 */
export function readMethodOptions(flag: string | undefined): unknown {
  if (flag === undefined) return {};
  if (flag.trimStart().startsWith('{')) {
    try {
      return JSON.parse(flag);
    } catch (error) {
      throw new RewardKitError('RK_USAGE', `--options: not valid JSON: ${errorMessage(error)}`);
    }
  }
  let text: string;
  try {
    text = readFileSync(flag, 'utf8');
  } catch {
    throw new RewardKitError(
      'RK_USAGE',
      `--options: no such file "${flag}" (pass inline JSON or a JSON/YAML file)`,
    );
  }
  try {
    return parseYaml(text) ?? {};
  } catch (error) {
    throw new RewardKitError('RK_USAGE', `--options: ${flag}: ${errorMessage(error)}`);
  }
}
