import { describe, expect, test } from 'vitest';
import { producerFlagProblems, RUBRIC_PRODUCERS } from './rubric-producers.js';

describe('rubric producers of rubrics quality', () => {
  test('should offer OpenRS, QuarkMedBench, GenRM and the rubric judge', () => {
    expect(Object.keys(RUBRIC_PRODUCERS).sort()).toEqual(['genrm', 'medical', 'openrs', 'rubric']);
  });

  test.each([
    ['genrm', {}, []],
    ['openrs', { metaRubric: 'm.md', domains: 'd' }, []],
    ['medical', { rubrics: 'r.jsonl' }, []],
    ['rubric', { rubricFile: 'rubric.yaml' }, []],
    [
      'rubric',
      {},
      [
        '--producer rubric needs --rubric-file <file>: the rubric (YAML or JSON) the general rubric judge grades every pair by',
      ],
    ],
    [
      'genrm',
      { rubricFile: 'rubric.yaml' },
      ['--rubric-file is read only by --producer rubric; drop it for --producer genrm'],
    ],
    [
      'medical',
      {},
      [
        '--producer medical needs --rubrics <file>: the QuarkMedBench rubrics, one per pair id (rubrics generate writes them)',
      ],
    ],
    [
      'genrm',
      { rubrics: 'r.jsonl' },
      ['--rubrics is read only by --producer medical; drop it for --producer genrm'],
    ],
    [
      'medical',
      { rubrics: 'r.jsonl', domains: 'd' },
      ['--domains is read only by --producer openrs; drop it for --producer medical'],
    ],
  ])('%s with %j', (name, flags, problems) => {
    expect(producerFlagProblems(name, flags)).toEqual(problems);
  });
});
