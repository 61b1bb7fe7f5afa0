import { Command } from 'commander';
import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import { addParamFlags, paramFlags, paramsFromFlags } from '../src/cli/params-flags.js';
import { promptText } from '../src/core/index.js';
import { defineJudgeRole, promptNonce, untrustedBlock } from '../src/judges/index.js';
import { createOpenAICompatibleModel, usageOf } from '../src/llm/index.js';
import { judgeCallsOf } from '../src/llm/judge-call-of.js';
import {
  createEvaluator,
  defineJudgeKind,
  parseSpec,
  SourceFailedError,
  sourceKinds,
} from '../src/spec/index.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

// The worked example of docs/architecture.md ("Judge kinds"): a judge added in one declaration.
const politenessRole = defineJudgeRole({
  name: 'politeness',
  schema: z.object({ polite: z.boolean(), reason: z.string() }),
  system: 'You judge whether a reply is polite. Answer JSON {"polite": boolean, "reason": string}.',
  render: (input: { prompt: string; response: string }) => {
    const nonce = promptNonce(input.prompt, input.response);
    return `${untrustedBlock('request', input.prompt, nonce)}\n${untrustedBlock('reply', input.response, nonce)}`;
  },
});

const politenessSource = defineJudgeKind({
  kind: 'politeness',
  description: 'An LLM judges whether the reply is polite (1) or not (0)',
  params: z.strictObject({
    model: z.string().min(1).describe('the judge: a model name from the models file'),
    reasks: z.number().int().nonnegative().default(2).describe('re-asks after unreadable output'),
  }),
  create:
    (p) =>
    async (sample, { services, signal }) => {
      const outcome = await politenessRole(
        { prompt: promptText(sample), response: sample.response },
        { model: services.model(p.model), reasks: p.reasks, signal },
      );
      const usage = usageOf(outcome.calls);
      const calls = judgeCallsOf(outcome.calls);
      if (outcome.status === 'invalid')
        throw new SourceFailedError(outcome.reason, { detail: { raw: outcome.raw }, usage, calls });
      const score = outcome.value.polite ? 1 : 0;
      return { score, verdict: score === 1 ? 'pass' : 'fail', reason: outcome.value.reason, usage, calls };
    },
  judge: {
    reads: 'nothing else',
    examples: ['--models m.yaml --model judge --input replies.jsonl --output judged.jsonl'],
  },
});

const server = scriptedServerPerTest();

describe('adding a judge kind (the example of docs/architecture.md)', () => {
  test('should give flags from its params and score samples through a spec', async () => {
    const flags = paramFlags(politenessSource.params);
    expect(flags.map((f) => f.flag)).toEqual(['--model', '--reasks']);
    const command = addParamFlags(new Command('politeness').exitOverride(), flags);
    command.parse(['--model', 'judge', '--reasks', '0'], { from: 'user' });
    const params = paramsFromFlags(politenessSource.params, flags, command);

    server.script(
      { match: { contains: 'Thank you' }, reply: { content: '{"polite": true, "reason": "thanks"}' } },
      { reply: { content: '{"polite": false, "reason": "curt"}' } },
    );
    const registry = new Map([...sourceKinds, ['politeness', politenessSource]]);
    const spec = parseSpec(
      JSON.stringify({ sources: [{ kind: 'politeness', params }] }),
      'example',
      registry,
    );
    const model = createOpenAICompatibleModel({
      name: 'judge',
      model: 'm',
      endpoints: [{ baseURL: server.url }],
    });
    const evaluator = createEvaluator(spec, { registry, models: new Map([['judge', model]]) });
    const kind = await evaluator.evaluate({
      id: 'a',
      prompt: 'Pass the salt.',
      response: 'Thank you, here it is.',
      metadata: {},
    });
    const curt = await evaluator.evaluate({
      id: 'b',
      prompt: 'Pass the salt.',
      response: 'No.',
      metadata: {},
    });
    expect([kind.reward, curt.reward]).toEqual([1, 0]);
    expect(kind.evidence[0]?.usage?.calls).toBe(1);
    expect(kind.evidence[0]?.calls?.map((c) => [c.role, c.parsed])).toEqual([
      ['politeness', { polite: true, reason: 'thanks' }],
    ]);
    // The system turn is the role's own; the reply under judgment only ever appears inside its block.
    expect(server.requests[0]?.body.messages?.[0]?.content).toBe(
      'You judge whether a reply is polite. Answer JSON {"polite": boolean, "reason": string}.',
    );
    await evaluator.close();
  });
});
