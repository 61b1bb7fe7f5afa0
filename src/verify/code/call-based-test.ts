import { RewardKitError } from '../../core/index.js';
import type { CodeTest } from './code-test.js';

/** A Python string literal holding `text` (JSON's escapes are all valid in Python literals). */
const pythonString = (text: string) => JSON.stringify(text);

/**
 * A call-based test (APPS/TACO `fn_name`, as verl's prime_code and sandbox_fusion run them) as an
 * assert test: the function `fnName` of the program, or the method of a `Solution()` instance
 * (LeetCode style), is called with `args`; its result, with tuples read as lists as JSON has
 * them, passes when it equals `expected`, or `expected[0]` when the dataset wrapped the value in
 * a one-element list (APPS writes outputs both ways).
 */
export function callBasedTest(fnName: string, args: readonly unknown[], expected: unknown): CodeTest {
  if (!/^[A-Za-z_]\w*$/.test(fnName)) {
    throw new RewardKitError('RK_INPUT_SCHEMA', `fn_name "${fnName}" is not a Python identifier`);
  }
  return {
    kind: 'assert',
    code: [
      'import json as _json',
      'def _as_json(value):',
      '    if isinstance(value, (list, tuple)):',
      '        return [_as_json(item) for item in value]',
      '    if isinstance(value, dict):',
      '        return {key: _as_json(item) for key, item in value.items()}',
      '    return value',
      'try:',
      `    _function = ${fnName}`,
      'except NameError:',
      `    _function = getattr(Solution(), ${pythonString(fnName)})`,
      `_args = _json.loads(${pythonString(JSON.stringify(args))})`,
      `_expected = _json.loads(${pythonString(JSON.stringify(expected))})`,
      '_result = _as_json(_function(*_args))',
      'assert _result == _expected or (isinstance(_expected, list) and len(_expected) == 1 and _result == _expected[0]), ' +
        `"${fnName}(...) returned %r, expected %r" % (_result, _expected)`,
      '',
    ].join('\n'),
  };
}
