import { describe, expect, test } from 'vitest';
import { MedicalRubricSchema } from '../src/judges/medical/index.js';
import {
  genrmRubricProducer,
  medicalRubricProducer,
  openrsRubricProducer,
  type RubricQualityRecord,
  rubricJudgeProducer,
  scoreRubricQuality,
  summarizeRubricQuality,
} from '../src/judges/proxy-grm/index.js';
import { RubricSchema } from '../src/judges/rubric/index.js';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const model = (name: string) =>
  createOpenAICompatibleModel({
    name,
    model: name,
    endpoints: [{ baseURL: server.url }],
    backoffBaseMs: 1,
    maxRetries: 0,
  });

const pair = {
  id: 'p1',
  prompt: 'Write a haiku about rain.',
  chosen: 'CHOSEN-POEM',
  rejected: 'REJECTED-POEM',
};

const PROXY = 'using only the rubric you are given';
const proxyRequests = () =>
  server.requests
    .filter((r) => String(r.body.messages?.[0]?.content).includes(PROXY))
    .map((r) => JSON.stringify(r.body.messages));

/** The proxy prefers whichever poem is shown in position `at`, in every order. */
const proxyPrefers = (poem: string): ScriptRule[] => [
  {
    match: { model: 'proxy', contains: new RegExp(`Response 1:\\n<response-1-\\w+>\\n${poem}`) },
    reply: { content: JSON.stringify({ reason: 'the rubric favours it', preferred: 1 }) },
  },
  {
    match: { model: 'proxy' },
    reply: { content: JSON.stringify({ reason: 'the rubric favours it', preferred: 2 }) },
  },
];

const genrmScores = (chosenScore: number, rejectedScore: number): ScriptRule[] => {
  const reply = (one: number, two: number) => ({
    content: JSON.stringify({
      principles: ['PRINCIPLE-IMAGERY: concrete seasonal imagery'],
      critique: 'CRITIQUE-SECRET: the first is vivid',
      score_1: one,
      score_2: two,
    }),
  });
  return [
    {
      match: { model: 'producer', contains: /Response 1:\n<response-1-\w+>\nCHOSEN-POEM/ },
      reply: reply(chosenScore, rejectedScore),
    },
    { match: { model: 'producer' }, reply: reply(rejectedScore, chosenScore) },
  ];
};

const options = (chosenFirst: boolean) => ({
  producer: genrmRubricProducer,
  producerModel: model('producer'),
  proxy: { model: model('proxy'), reasks: 0 },
  chosenFirst,
});

describe('rubric quality by proxy (Proxy-GRM)', () => {
  test.each([true, false])(
    'should show the proxy the rubric and both responses, never the evaluation or verdict (chosen first: %s)',
    async (chosenFirst) => {
      server.script(...genrmScores(9, 3), ...proxyPrefers('CHOSEN-POEM'));
      const got = (await scoreRubricQuality(pair, options(chosenFirst))) as RubricQualityRecord;
      expect(got.label).toBe(chosenFirst ? 1 : 2);
      expect(got.terms).toEqual({ acc: 1, proxy: 1, format: 1 });
      expect(got.rewards.sum).toBe(2.5);
      const seen = proxyRequests();
      // Both orders.
      expect(seen).toHaveLength(2);
      for (const text of seen) {
        expect(text).toContain('PRINCIPLE-IMAGERY');
        expect(text).toContain('CHOSEN-POEM');
        expect(text).toContain('REJECTED-POEM');
        expect(text).not.toContain('CRITIQUE-SECRET');
        expect(text).not.toContain('score_1');
      }
    },
  );

  test('should score a rubric the proxy reads the wrong way as proxy -1 (judges.md: acc +1, proxy -1 -> 0.5)', async () => {
    server.script(...genrmScores(9, 3), ...proxyPrefers('REJECTED-POEM'));
    const got = (await scoreRubricQuality(pair, options(true))) as RubricQualityRecord;
    expect(got.terms).toEqual({ acc: 1, proxy: -1, format: 1 });
    expect(got.rewards.sum).toBe(0.5);
  });

  test('should read orders that disagree (a position-biased proxy) as wrong', async () => {
    server.script(...genrmScores(9, 3), {
      match: { model: 'proxy' },
      reply: { content: JSON.stringify({ reason: 'first is best', preferred: 1 }) },
    });
    const got = (await scoreRubricQuality(pair, options(true))) as RubricQualityRecord;
    expect(got.proxy.prediction).toBe('wrong');
    expect(got.terms.proxy).toBe(-1);
  });

  test('should make a proxy transport failure 0, recorded and counted apart, never wrong', async () => {
    server.script(...genrmScores(9, 3), { match: { model: 'proxy' }, reply: { status: 503 } });
    const got = (await scoreRubricQuality(pair, options(true))) as RubricQualityRecord;
    expect(got.proxy_transport_failure).toBe(true);
    expect(got.terms).toEqual({ acc: 1, proxy: 0, format: 1 });
    expect(got.rewards.sum).toBe(1.5);
    const summary = summarizeRubricQuality([got]);
    expect(summary.proxy_transport_failures).toBe(1);
    expect(summary.proxy_accuracy).toEqual({ mean: null, ci95: null, n: 0 });
    expect(summary.producer_accuracy.mean).toBe(1);
  });

  test('should read an unreadable proxy reply as wrong, not as a transport failure', async () => {
    server.script(...genrmScores(9, 3), {
      match: { model: 'proxy' },
      reply: { content: 'Response 1, surely.' },
    });
    const got = (await scoreRubricQuality(pair, options(true))) as RubricQualityRecord;
    expect(got.proxy_transport_failure).toBe(false);
    expect(got.terms.proxy).toBe(-1);
  });

  test('should score a producer tie as acc -1 and a producer that never answered as a transport failure', async () => {
    server.script(
      { match: { model: 'producer', contains: 'Another request.' }, reply: { status: 500 } },
      ...genrmScores(5, 5),
      ...proxyPrefers('CHOSEN-POEM'),
    );
    const tie = (await scoreRubricQuality(pair, options(true))) as RubricQualityRecord;
    expect(tie.verdict).toEqual([1, 2]);
    expect(tie.terms.acc).toBe(-1);
    const down = await scoreRubricQuality({ ...pair, id: 'p2', prompt: 'Another request.' }, options(true));
    expect(down).toMatchObject({ producer_transport_failure: true });
    const summary = summarizeRubricQuality([tie, down]);
    expect(summary).toMatchObject({ pairs: 2, scored: 1, failed: 1, producer_transport_failures: 1 });
  });

  test("should show OpenRS's criteria, not its differences, evidence, reasons or winners", async () => {
    const criterion = (i: number) => ({
      name: `CRITERION-${i}`,
      type: 'core',
      evidence_a: 'EVIDENCE-SECRET',
      evidence_b: 'none',
      reason: 'REASON-SECRET',
      winner: 'A',
      strength: 2,
    });
    server.script(
      {
        match: { role: 'system', contains: 'You analyse what a user wants' },
        reply: {
          content: JSON.stringify({
            query_type: 'creative',
            primary_need: 'a haiku',
            secondary_needs: [],
            user_context: 'none',
            domains: ['general'],
          }),
        },
      },
      ...proxyPrefers('CHOSEN-POEM'),
      {
        match: { model: 'producer', contains: /Response A:\n<response-a-\w+>\nCHOSEN-POEM/ },
        reply: {
          content: JSON.stringify({
            differences: ['DIFFERENCE-SECRET'],
            criteria: [1, 2, 3, 4, 5].map(criterion),
          }),
        },
      },
      {
        match: { model: 'producer' },
        reply: {
          content: JSON.stringify({
            differences: ['DIFFERENCE-SECRET'],
            criteria: [1, 2, 3, 4, 5].map((i) => ({ ...criterion(i), winner: 'B' })),
          }),
        },
      },
    );
    const got = (await scoreRubricQuality(pair, {
      ...options(true),
      producer: openrsRubricProducer(),
    })) as RubricQualityRecord;
    expect(got.terms).toEqual({ acc: 1, proxy: 1, format: 1 });
    for (const text of proxyRequests()) {
      expect(text).toContain('CRITERION-5');
      for (const secret of ['EVIDENCE-SECRET', 'REASON-SECRET', 'DIFFERENCE-SECRET', '"winner"', 'strength'])
        expect(text).not.toContain(secret);
    }
  });

  test("should show a QuarkMedBench rubric, not the producer's grades", async () => {
    const levels = { not_met: 'no', partially_met: 'partly', fully_met: 'LEVEL-FULLY' };
    const rubric = MedicalRubricSchema.parse({
      id: 'p1',
      query: pair.prompt,
      essential: [{ title: 'ESSENTIAL-TITLE', levels }],
      important: [],
      highlight: [],
      pitfall: [],
    });
    const file = {
      file: 'rubrics.jsonl',
      rubrics: new Map([['p1', rubric]]),
      rejected: new Map(),
      unattributed: [],
    };
    const grade = (g: string) => ({
      content: JSON.stringify({
        grades: [{ id: 'E1', evidence: 'GRADE-EVIDENCE', reason: 'GRADE-REASON', grade: g }],
      }),
    });
    server.script(
      ...proxyPrefers('CHOSEN-POEM'),
      { match: { model: 'producer', contains: 'CHOSEN-POEM' }, reply: grade('fully_met') },
      { match: { model: 'producer' }, reply: grade('not_met') },
    );
    const got = (await scoreRubricQuality(pair, {
      ...options(false),
      producer: medicalRubricProducer(file),
    })) as RubricQualityRecord;
    expect(got.verdict).toEqual([2]);
    expect(got.terms).toEqual({ acc: 1, proxy: 1, format: 1 });
    for (const text of proxyRequests()) {
      expect(text).toContain('ESSENTIAL-TITLE');
      expect(text).toContain('LEVEL-FULLY');
      expect(text).not.toContain('GRADE-EVIDENCE');
      expect(text).not.toContain('GRADE-REASON');
    }
    const missing = await scoreRubricQuality(
      { ...pair, id: 'nope' },
      { ...options(true), producer: medicalRubricProducer(file) },
    );
    expect(missing).toMatchObject({
      producer_transport_failure: false,
      error: expect.stringContaining('no rubric with id "nope"'),
    });
  });

  test("should show the rubric judge's rubric (criteria, weights, anchors), not its grades or reasons", async () => {
    const rubric = RubricSchema.parse({
      mode: 'likert',
      criteria: [
        { name: 'IMAGERY-CRITERION', description: 'concrete images of rain', weight: 3 },
        { name: 'FORM-CRITERION', description: 'five, seven, five syllables', weight: 1 },
      ],
      anchors: { 1: 'ANCHOR-POOR', 2: 'fair', 3: 'good', 4: 'very good', 5: 'ANCHOR-EXCELLENT' },
    });
    const graded = (grade: number) => ({
      content: JSON.stringify({
        grades: ['c1', 'c2'].map((id) => ({ id, reason: 'GRADE-REASON-SECRET', grade })),
      }),
    });
    server.script(
      ...proxyPrefers('CHOSEN-POEM'),
      { match: { model: 'producer', contains: 'CHOSEN-POEM' }, reply: graded(5) },
      { match: { model: 'producer' }, reply: graded(2) },
    );
    const got = (await scoreRubricQuality(pair, {
      ...options(true),
      producer: rubricJudgeProducer(rubric),
    })) as RubricQualityRecord;
    expect(got.verdict).toEqual([1]);
    expect(got.terms).toEqual({ acc: 1, proxy: 1, format: 1 });
    const seen = proxyRequests();
    expect(seen.length).toBe(2);
    for (const text of seen) {
      for (const shown of [
        'IMAGERY-CRITERION (weight 3)',
        'FORM-CRITERION',
        'ANCHOR-POOR',
        'ANCHOR-EXCELLENT',
      ])
        expect(text).toContain(shown);
      expect(text).not.toContain('GRADE-REASON-SECRET');
    }
  });
});
