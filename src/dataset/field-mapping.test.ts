import { describe, expect, test } from 'vitest';
import { applyFieldMappings, combineFieldMappings, parseFieldMapping } from './field-mapping.js';
import { lookUpField, parseFieldPath } from './field-path.js';
import { formatPresetMappings } from './format-presets.js';

const verlRow = {
  data_source: 'openai/gsm8k',
  prompt: [{ role: 'user', content: 'What is 1+1?' }],
  reward_model: { style: 'rule', ground_truth: '2' },
  extra_info: { index: 7, split: 'test' },
  responses: ['#### 2', '#### 3'],
};

describe('lookUpField', () => {
  test.each([
    ['reward_model.ground_truth', ['2']],
    ['responses[0]', ['#### 2']],
    ['responses[-1]', ['#### 3']],
    ['responses[*]', ['#### 2', '#### 3']],
    ['prompt[0].content', ['What is 1+1?']],
  ])('should find %s', (path, values) => {
    expect(lookUpField(verlRow, parseFieldPath(path, '--map'))).toMatchObject({ found: true, values });
  });

  test.each([
    ['reward_model.answer', 'reward_model.answer'],
    ['responses[5]', 'responses[5]'],
    ['extra_info.index.x', 'extra_info.index.x'],
    ['data_source[*]', 'data_source is not a list'],
  ])('should say where %s runs out', (path, missing) => {
    expect(lookUpField(verlRow, parseFieldPath(path, '--map'))).toEqual({ found: false, missing });
  });

  test('should treat a null (a Parquet null cell) as missing', () => {
    expect(lookUpField({ gts: null }, parseFieldPath('gts', '--map'))).toEqual({
      found: false,
      missing: 'gts',
    });
  });
});

describe('parseFieldMapping', () => {
  test('should read alternatives and the optional mark', () => {
    const m = parseFieldMapping('response=completion[-1].content|completion?');
    expect(m.target).toEqual(['response']);
    expect(m.optional).toBe(true);
    expect(m.sources.map((s) => s.text)).toEqual(['completion[-1].content', 'completion']);
  });

  test.each(['reference', '=x', 'reference=', 'a b=c', 'response=responses[x]', 'response=a..b'])(
    'should refuse %s, naming the flag',
    (text) => {
      expect(() => parseFieldMapping(text)).toThrow(/^--map /);
    },
  );

  test('should let --map replace a preset entry, and allow one list expansion', () => {
    const combined = combineFieldMappings([
      ...formatPresetMappings('verl'),
      parseFieldMapping('response=responses[0]'),
    ]);
    expect(combined.find((m) => m.target[0] === 'response')?.text).toBe('response=responses[0]');
    expect(() =>
      combineFieldMappings([parseFieldMapping('response=a[*]'), parseFieldMapping('reference=b[*]')]),
    ).toThrow(/only one field may expand a list/);
  });
});

describe('applyFieldMappings', () => {
  test('should keep the row, set mapped fields (nested targets too) and read a numeric reference as text', () => {
    const mapped = applyFieldMappings({ q: 'x', label: 42, step: 3 }, [
      parseFieldMapping('prompt=q'),
      parseFieldMapping('reference=label'),
      parseFieldMapping('metadata.step=step'),
    ]);
    expect(mapped).toEqual({
      ok: true,
      rows: [{ fields: { q: 'x', label: 42, step: 3, prompt: 'x', reference: '42', metadata: { step: 3 } } }],
    });
  });

  test('should fail a row whose required field is missing, naming every path tried and the mapping', () => {
    const mapping = parseFieldMapping('response=completion[-1].content|output');
    expect(applyFieldMappings({ completion: [] }, [mapping])).toEqual({
      ok: false,
      errors: ['field "completion[-1]" or "output": missing (--map response=completion[-1].content|output)'],
    });
    expect(applyFieldMappings({ completion: null }, [mapping])).toMatchObject({
      errors: ['field "completion" or "output": missing (--map response=completion[-1].content|output)'],
    });
  });

  test('should skip an optional mapping that finds nothing', () => {
    expect(applyFieldMappings({ a: 1 }, [parseFieldMapping('reference=gts?')])).toEqual({
      ok: true,
      rows: [{ fields: { a: 1 } }],
    });
  });

  test('should expand [*] into one row per element, and refuse an empty list', () => {
    const mapped = applyFieldMappings(verlRow, formatPresetMappings('verl'));
    expect(
      mapped.ok && mapped.rows.map((r) => [r.element, r.fields.id, r.fields.response, r.fields.reference]),
    ).toEqual([
      [0, 7, '#### 2', '2'],
      [1, 7, '#### 3', '2'],
    ]);
    expect(applyFieldMappings({ responses: [] }, [parseFieldMapping('response=responses[*]')])).toMatchObject(
      {
        ok: false,
        errors: [expect.stringMatching(/the list is empty/)],
      },
    );
  });

  test('should read the verl dump, OpenRLHF and TRL layouts through their presets', () => {
    const dump = applyFieldMappings(
      { input: 'user: 1+1?', output: '#### 2', gts: 2, score: 1, step: 120 },
      formatPresetMappings('verl-dump'),
    );
    expect(dump.ok && dump.rows[0]?.fields).toMatchObject({
      prompt: 'user: 1+1?',
      response: '#### 2',
      reference: '2',
      metadata: { step: 120, verl_score: 1 },
    });
    const searchR1 = applyFieldMappings(
      {
        data_source: 'searchR1_nq',
        response: '<answer>Paris</answer>',
        reward_model: { ground_truth: { target: ['Paris', 'paris, france'] } },
      },
      formatPresetMappings('verl'),
    );
    expect(searchR1.ok && searchR1.rows[0]?.fields).toMatchObject({ reference: ['Paris', 'paris, france'] });
    const tests = { inputs: ['1\n'], outputs: ['2\n'], fn_name: null };
    for (const groundTruth of [JSON.stringify(tests), tests]) {
      const code = applyFieldMappings(
        { data_source: 'taco', response: 'x', reward_model: { ground_truth: groundTruth } },
        formatPresetMappings('verl'),
      );
      expect(code.ok && JSON.parse(code.rows[0]?.fields.reference as string)).toEqual(tests);
    }
    const trl = applyFieldMappings(
      {
        prompt: [{ role: 'user', content: 'q' }],
        completion: [{ role: 'assistant', content: 'a' }],
        solution: 'a',
      },
      formatPresetMappings('trl'),
    );
    expect(trl.ok && trl.rows[0]?.fields).toMatchObject({ response: 'a', reference: 'a' });
    const trlText = applyFieldMappings({ prompt: 'q', completion: 'a' }, formatPresetMappings('trl'));
    expect(trlText.ok && trlText.rows[0]?.fields).toMatchObject({ prompt: 'q', response: 'a' });
    const openrlhf = applyFieldMappings(
      { input: 'q', output: 'a', label: ['1', '2'] },
      formatPresetMappings('openrlhf'),
    );
    expect(openrlhf.ok && openrlhf.rows[0]?.fields).toMatchObject({
      prompt: 'q',
      response: 'a',
      reference: ['1', '2'],
    });
  });
});

describe('inherited keys (found by the --map property)', () => {
  test.each(['constructor', 'toString', '__proto__', 'a.constructor'])(
    'should find only own fields, never what every object inherits, for %s',
    (path) => {
      expect(lookUpField(JSON.parse('{"a": {}}'), parseFieldPath(path, '--map'))).toMatchObject({
        found: false,
      });
    },
  );

  test('should find an own "__proto__" key that JSON.parse made', () => {
    const row = JSON.parse('{"__proto__": "x"}');
    expect(lookUpField(row, parseFieldPath('__proto__', '--map'))).toEqual({
      found: true,
      values: ['x'],
      each: false,
    });
  });

  test.each(['__proto__=a', '__proto__.x=a', 'metadata.__proto__=a'])(
    'should refuse %s, whose target would set the prototype, not a field',
    (text) => {
      expect(() => parseFieldMapping(text)).toThrow(`--map "${text}": "__proto__" cannot be a target field`);
    },
  );

  test('should set a "constructor" target as a field of its own', () => {
    const mapped = applyFieldMappings({ a: 1 }, [parseFieldMapping('constructor.x=a')]);
    expect(mapped.ok && mapped.rows[0]?.fields).toEqual({ a: 1, constructor: { x: 1 } });
  });
});
