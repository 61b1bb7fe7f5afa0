import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { RewardResult, Sample } from '../src/core/index.js';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import { createEvaluator, parseSpec, specWarnings } from '../src/spec/index.js';
import type { PanelDetail } from '../src/spec/sources/panel-source.js';
import { repoRoot, tempDir } from './cli-harness.js';
import { type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const sample: Sample = {
  id: 's1',
  prompt: 'Write a line about rain.',
  response: 'Rain taps the roof.',
  reference: 'Rain falls.',
  metadata: {},
};

const MODELS = ['judge-a', 'judge-b', 'judge-c', 'judge-strong'];
const models = () =>
  new Map(
    MODELS.map((name) => [
      name,
      createOpenAICompatibleModel({ name, model: name, endpoints: [{ baseURL: server.url }], maxRetries: 0 }),
    ]),
  );

/** The GenRM's reply, one order only: the response (shown first) wins, ties or loses. */
const genrm = (model: string, outcome: 'win' | 'tie' | 'loss'): ScriptRule => {
  const [one, two] = { win: [8, 3], tie: [5, 5], loss: [2, 9] }[outcome];
  return {
    match: { model },
    reply: {
      content: JSON.stringify({ principles: ['vivid'], critique: 'as scored', score_1: one, score_2: two }),
    },
  };
};
const down = (model: string): ScriptRule => ({
  match: { model },
  reply: { status: 500, error: 'backend down' },
});

const member = (model: string, extra: Record<string, unknown> = {}) => ({
  kind: 'genrm',
  params: { model, both_orders: false, reasks: 0 },
  ...extra,
});

async function score(panel: Record<string, unknown>): Promise<RewardResult> {
  const spec = parseSpec(JSON.stringify({ sources: [{ kind: 'panel', params: panel }] }), 'panel.json');
  const evaluator = createEvaluator(spec, { models: models() });
  try {
    return await evaluator.evaluate(sample);
  } finally {
    await evaluator.close();
  }
}

const detailOf = (result: RewardResult) => result.evidence[0]?.detail as PanelDetail;
const requestedModels = () => server.requests.map((r) => r.body.model).sort();

describe('panel source against the scripted server', () => {
  test('should decide by the majority of three judges of one kind over three models', async () => {
    server.script(genrm('judge-a', 'win'), genrm('judge-b', 'win'), genrm('judge-c', 'loss'));
    const result = await score({
      judge: { kind: 'genrm', params: { both_orders: false, reasks: 0 } },
      models: ['judge-a', 'judge-b', 'judge-c'],
    });
    expect(result.status).toBe('ok');
    expect(result.reward).toBe(1);
    expect(result.evidence[0]).toMatchObject({ verdict: 'pass', reason: 'majority pass (pass 2, fail 1)' });
    expect(detailOf(result)).toMatchObject({
      decide: 'majority',
      quorum: 2,
      answered: 3,
      escalated: false,
      members: [
        { name: 'genrm:judge-a', verdict: 'pass', score: 1 },
        { name: 'genrm:judge-b', verdict: 'pass', score: 1 },
        { name: 'genrm:judge-c', verdict: 'fail', score: 0 },
      ],
    });
    // One call per member, all counted on the panel's evidence: usage and calls per judgment.
    expect(requestedModels()).toEqual(['judge-a', 'judge-b', 'judge-c']);
    expect(result.evidence[0]?.usage).toMatchObject({ calls: 3, prompt_tokens: 30, completion_tokens: 15 });
    expect(result.evidence[0]?.calls).toHaveLength(3);
  });

  test('should take the weighted mean and the weighted vote under decide: weights', async () => {
    server.script(genrm('judge-a', 'win'), genrm('judge-b', 'loss'), genrm('judge-c', 'loss'));
    const result = await score({
      decide: 'weights',
      members: [member('judge-a', { weight: 3 }), member('judge-b'), member('judge-c')],
    });
    // (3·1 + 0 + 0) / 5; pass holds weight 3 against fail's 2.
    expect(result.reward).toBeCloseTo(0.6, 12);
    expect(result.evidence[0]?.verdict).toBe('pass');
  });

  test('should call the stronger judge only when the members disagree', async () => {
    server.script(
      genrm('judge-a', 'win'),
      genrm('judge-b', 'win'),
      genrm('judge-c', 'loss'),
      genrm('judge-strong', 'loss'),
    );
    const panel = {
      decide: 'escalate',
      members: [member('judge-a'), member('judge-b')],
      escalate_to: member('judge-strong'),
    };
    const agreed = await score(panel);
    expect(requestedModels()).toEqual(['judge-a', 'judge-b']);
    expect(agreed.reward).toBe(1);
    expect(detailOf(agreed)).toMatchObject({ escalated: false, spread: 0 });

    server.requests.length = 0;
    const disagreed = await score({
      ...panel,
      members: [member('judge-a'), member('judge-c')],
    });
    expect(requestedModels()).toEqual(['judge-a', 'judge-c', 'judge-strong'].sort());
    expect(disagreed.reward).toBe(0);
    expect(detailOf(disagreed)).toMatchObject({
      escalated: true,
      spread: 1,
      escalation: { name: 'genrm:judge-strong', verdict: 'fail', score: 0 },
    });
    expect(disagreed.evidence[0]?.usage?.calls).toBe(3);
  });

  test('should not escalate while the score spread stays within the disagreement threshold', async () => {
    server.script(genrm('judge-a', 'win'), genrm('judge-b', 'tie'), genrm('judge-strong', 'loss'));
    const result = await score({
      decide: 'escalate',
      disagreement: 0.5,
      members: [member('judge-a'), member('judge-b')],
      escalate_to: member('judge-strong'),
    });
    // Scores 1 and 0.5: spread 0.5, not beyond 0.5. Verdicts pass and fail tie: the mean, 0.75.
    expect(requestedModels()).toEqual(['judge-a', 'judge-b']);
    expect(detailOf(result)).toMatchObject({ escalated: false, spread: 0.5 });
    expect(result.reward).toBe(0.75);
  });

  test('should ask every member at once, not one after another', async () => {
    // judge-a never answers: members asked in turn would never reach judge-b and judge-c.
    server.script(
      { match: { model: 'judge-a' }, reply: { hang: true } },
      genrm('judge-b', 'win'),
      genrm('judge-c', 'win'),
    );
    const spec = parseSpec(
      JSON.stringify({
        sources: [
          {
            kind: 'panel',
            timeout_ms: 1500,
            params: { members: [member('judge-a'), member('judge-b'), member('judge-c')], quorum: 3 },
          },
        ],
      }),
      'panel.json',
    );
    const evaluator = createEvaluator(spec, { models: models() });
    const result = await evaluator.evaluate(sample);
    await evaluator.close();
    expect(result.status).toBe('failed');
    expect(requestedModels()).toEqual(['judge-a', 'judge-b', 'judge-c']);
  });

  test('should decide by the members that answered when one fails, at or above the quorum', async () => {
    server.script(genrm('judge-a', 'win'), genrm('judge-b', 'win'), down('judge-c'));
    const result = await score({ members: [member('judge-a'), member('judge-b'), member('judge-c')] });
    expect(result.status).toBe('ok');
    expect(result.reward).toBe(1);
    expect(detailOf(result)).toMatchObject({ answered: 2, quorum: 2 });
    expect(detailOf(result).members[2]).toMatchObject({ name: 'genrm:judge-c', verdict: 'error' });
    expect(detailOf(result).members[2]?.reason).toMatch(/backend down|500/);
    expect(result.warnings.join('\n')).toMatch(
      /genrm:judge-c failed .*decided by the 2 members that answered/,
    );
  });

  test('should make the sample invalid with every reason below the quorum, never a 0', async () => {
    server.script(genrm('judge-a', 'win'), down('judge-b'), down('judge-c'));
    const result = await score({ members: [member('judge-a'), member('judge-b'), member('judge-c')] });
    expect(result.status).toBe('failed');
    expect(result.reward).toBeNull();
    expect(result.evidence[0]).toMatchObject({ invalid: true, verdict: 'error' });
    expect(result.evidence[0]?.reason).toMatch(
      /^1 of 3 panel members answered, below the quorum of 2: genrm:judge-b: .*; genrm:judge-c: /,
    );
    // The answered call stays counted on the failed evidence (the refused ones report no usage).
    expect(result.evidence[0]?.usage).toMatchObject({ calls: 1, prompt_tokens: 10 });
    expect(result.evidence[0]?.calls).toHaveLength(1);
    expect(detailOf(result).members.map((m) => m.verdict)).toEqual(['pass', 'error', 'error']);
  });

  test('should make the sample invalid when every member fails', async () => {
    server.script(down('judge-a'), down('judge-b'));
    const result = await score({ members: [member('judge-a'), member('judge-b')], quorum: 1 });
    expect(result.status).toBe('failed');
    expect(result.evidence[0]?.reason).toMatch(/^0 of 2 panel members answered, below the quorum of 1/);
  });

  test('should fail the sample when the members disagree and the escalation judge fails', async () => {
    server.script(genrm('judge-a', 'win'), genrm('judge-b', 'loss'), down('judge-strong'));
    const result = await score({
      decide: 'escalate',
      members: [member('judge-a'), member('judge-b')],
      escalate_to: member('judge-strong'),
    });
    expect(result.status).toBe('failed');
    expect(result.evidence[0]?.reason).toMatch(
      /members disagreed .* genrm:judge-strong, called to decide, failed/,
    );
  });
});

describe('panel params', () => {
  test.each([
    [
      { members: [{ kind: 'math' }, member('judge-a')] },
      /must be an LLM judge kind[\s\S]*members\[0\]\.kind/,
    ],
    [{ members: [member('judge-a'), { kind: 'genrm', params: {} }] }, /members\[1\]\.params\.model/],
    [
      { members: [member('judge-a'), member('judge-b', { params: { model: 'judge-b', against: 'group' } })] },
      /within the group is not supported/,
    ],
    [
      { decide: 'escalate', members: [member('judge-a'), member('judge-b')] },
      /escalate_to.*needed by decide: escalate/,
    ],
    [
      { members: [member('judge-a', { weight: 2 }), member('judge-b')] },
      /weights count only under decide: weights/,
    ],
    [{ members: [member('judge-a'), member('judge-b')], quorum: 3 }, /quorum 3 is more than the 2 members/],
    [{ members: [member('judge-a'), member('judge-a')] }, /two members are named "genrm:judge-a"/],
    [{ judge: { kind: 'genrm' } }, /give either `members`, or `judge` with `models`/],
  ])('should refuse %j before any call', (panel, message) => {
    expect(() =>
      parseSpec(JSON.stringify({ sources: [{ kind: 'panel', params: panel }] }), 'panel.json'),
    ).toThrow(message);
  });

  test('should parse its own output again to the same params, as a stored spec is read back', () => {
    const spec = parseSpec(
      JSON.stringify({
        sources: [
          {
            kind: 'panel',
            params: {
              decide: 'escalate',
              judge: { kind: 'genrm' },
              models: ['a', 'b'],
              escalate_to: member('s'),
            },
          },
        ],
      }),
      'panel.json',
    );
    const again = parseSpec(JSON.stringify(spec.default), 'stored.json');
    expect(again).toEqual(spec);
  });
});

describe('panel warnings', () => {
  test("should say each member kind's warnings about its params, named by member", () => {
    const rubrics = join(tempDir(), 'rubrics.jsonl');
    const good = readFileSync(join(repoRoot, 'examples/medical-rubrics.jsonl'), 'utf8').trim().split('\n')[0];
    writeFileSync(rubrics, `${good}\n{"id": "broken"}\n`);
    const spec = parseSpec(
      JSON.stringify({
        sources: [
          {
            name: 'judges',
            kind: 'panel',
            params: {
              judge: { kind: 'medical_rubric', params: { rubrics } },
              models: ['judge-a', 'judge-b'],
            },
          },
        ],
      }),
      'panel.json',
    );
    const warnings = specWarnings(spec);
    expect(
      warnings.map((w) => /^judges: ([^:]+:[^:]+): \d+ problem\(s\) in .*rubrics\.jsonl/.exec(w)?.[1]),
    ).toEqual(['medical_rubric:judge-a', 'medical_rubric:judge-b']);
  });
});
