import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { inlineMedicalRubric } from './inline-medical-rubric.js';
import { loadMedicalRubrics, readMedicalRubrics, rubricFor } from './read-medical-rubrics.js';

const levels = { not_met: 'no', partially_met: 'some', fully_met: 'yes' };
const pitfallLevels = { no_pitfall: 'none', minor_error: 'small', major_error: 'big' };
const rubric = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  query: 'Can I take ibuprofen with a cold?',
  essential: [{ title: 'Says it is usually fine', weight: 2, levels }],
  important: [{ title: 'Mentions stomach risk', levels }],
  highlight: [],
  pitfall: [{ title: 'Suggests exceeding the dose', levels: pitfallLevels }],
  ...extra,
});

const write = (name: string, text: string) => {
  const path = join(mkdtempSync(join(tmpdir(), 'rk-rubrics-')), name);
  writeFileSync(path, text);
  return path;
};

describe('readMedicalRubrics', () => {
  it('should read JSONL rubrics by id, with defaults filled', () => {
    const file = write('r.jsonl', `${JSON.stringify(rubric('q1'))}\n\n${JSON.stringify(rubric('q2'))}\n`);
    const got = readMedicalRubrics(file);
    expect([...got.keys()]).toEqual(['q1', 'q2']);
    expect(got.get('q1')?.important[0]?.weight).toBe(1);
    expect(got.get('q1')?.essential[0]?.weight).toBe(2);
  });

  it.each([
    ['a list', JSON.stringify([rubric('a'), rubric('b')])],
    ['{rubrics: [...]}', JSON.stringify({ rubrics: [rubric('a'), rubric('b')] })],
  ])('should read a JSON file holding %s', (_, text) => {
    expect([...readMedicalRubrics(write('r.json', text)).keys()]).toEqual(['a', 'b']);
  });

  it('should read one rubric from YAML', () => {
    const yaml = `id: y1
query: Is a fever of 38.5 C in an adult an emergency?
essential:
  - title: Gives the warning signs
    levels: {not_met: none, partially_met: some, fully_met: all}
important: []
highlight: []
pitfall: []
`;
    expect(readMedicalRubrics(write('r.yaml', yaml)).get('y1')?.essential).toHaveLength(1);
  });

  it('should reject a missing section, naming file, line and field', () => {
    const { pitfall: _, ...noPitfall } = rubric('q2');
    const file = write('r.jsonl', `${JSON.stringify(rubric('q1'))}\n${JSON.stringify(noPitfall)}\n`);
    expect(() => readMedicalRubrics(file)).toThrow(
      new RegExp(`${file.replaceAll('/', '\\/')}:2: field "pitfall": missing section`),
    );
  });

  it('should collect every problem: bad JSON, a wrong field, a repeated id', () => {
    const bad = rubric('q3', { essential: [{ title: 'x', levels: { not_met: 'a', fully_met: 'c' } }] });
    const file = write(
      'r.jsonl',
      [JSON.stringify(rubric('q1')), '{"id": ', JSON.stringify(bad), JSON.stringify(rubric('q1'))].join('\n'),
    );
    let message = '';
    try {
      readMedicalRubrics(file);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/\(3 problems\)/);
    expect(message).toMatch(/r\.jsonl:2: invalid JSON/);
    expect(message).toMatch(/r\.jsonl:3: field "essential\.0\.levels\.partially_met": /);
    expect(message).toMatch(/r\.jsonl:4: field "id": rubric id "q1" appears more than once/);
  });

  it('should point at the YAML line of the bad field', () => {
    const yaml = `rubrics:
  - id: y1
    query: q
    essential:
      - title: t
        weight: -1
        levels: {not_met: a, partially_met: b, fully_met: c}
    important: []
    highlight: []
    pitfall: []
`;
    expect(() => readMedicalRubrics(write('r.yml', yaml))).toThrow(
      /r\.yml:6: field "essential\.0\.weight": /,
    );
  });

  it('should reject an empty Essential section', () => {
    const file = write('r.jsonl', JSON.stringify(rubric('q1', { essential: [] })));
    expect(() => readMedicalRubrics(file)).toThrow(/:1: field "essential": /);
  });
});

describe('inlineMedicalRubric', () => {
  it('should take id and query from the sample', () => {
    const { id: _, query: __, ...bare } = rubric('ignored');
    const got = inlineMedicalRubric(bare, { id: 's1', query: 'the prompt' }, 'metadata.rubric');
    expect(got.id).toBe('s1');
    expect(got.query).toBe('the prompt');
  });

  it('should name the field of a bad inline rubric', () => {
    const { highlight: _, ...noHighlight } = rubric('x');
    expect(() => inlineMedicalRubric(noHighlight, { id: 's1', query: 'q' }, 'metadata.rubric')).toThrow(
      /metadata\.rubric is not a valid rubric: field "highlight": missing section/,
    );
  });
});

describe('loadMedicalRubrics', () => {
  it('should read a file once while it is unchanged, and again once it changes', () => {
    const file = write('once.jsonl', JSON.stringify(rubric('a')));
    const first = loadMedicalRubrics(file);
    expect(loadMedicalRubrics(file)).toBe(first);
    writeFileSync(file, [JSON.stringify(rubric('a')), JSON.stringify(rubric('b'))].join('\n'));
    expect([...loadMedicalRubrics(file).rubrics.keys()]).toEqual(['a', 'b']);
  });

  it('should keep the good rubrics and give each bad one to its id, with file, line and field', () => {
    const { pitfall: _, ...missing } = rubric('bad');
    const file = write(
      'r.jsonl',
      [
        JSON.stringify(rubric('ok')),
        JSON.stringify(missing),
        '{"id": "lost"',
        JSON.stringify(rubric('twice')),
        JSON.stringify(rubric('twice')),
      ].join('\n'),
    );
    const read = loadMedicalRubrics(file);
    expect([...read.rubrics.keys()]).toEqual(['ok']);
    expect(rubricFor(read, 'ok')).toMatchObject({ rubric: { id: 'ok' } });
    expect(rubricFor(read, 'bad')).toEqual({
      error: expect.stringMatching(
        /the rubric for "bad" in .*r\.jsonl is invalid: .*r\.jsonl:2: field "pitfall": missing section/,
      ),
    });
    // A repeated id is ambiguous: neither copy is used.
    expect(rubricFor(read, 'twice')).toEqual({
      error: expect.stringMatching(/r\.jsonl:5: field "id": rubric id "twice" appears more than once/),
    });
    // An id the file does not name may sit on a line that could not be read: say so.
    expect(rubricFor(read, 'lost')).toEqual({
      error: expect.stringMatching(
        /no rubric with id "lost" .*\(1 part\(s\) of the file could not be read .*r\.jsonl:3: invalid JSON/,
      ),
    });
  });
});
