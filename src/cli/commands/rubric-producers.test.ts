import { describe, expect, test } from 'vitest';
import { producerFlagProblems, RUBRIC_PRODUCERS } from './rubric-producers.js';

describe('rubric producers of rubrics quality', () => {
  test('should offer OpenRS, QuarkMedBench and GenRM', () => {
    expect(Object.keys(RUBRIC_PRODUCERS).sort()).toEqual(['genrm', 'medical', 'openrs']);
  });

  test.each([
    ['genrm', {}, []],
    ['openrs', { metaRubric: 'm.md', domains: 'd' }, []],
    ['medical', { rubrics: 'r.jsonl' }, []],
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
