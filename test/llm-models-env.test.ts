import { describe, expect, test } from 'vitest';
import { modelsFromEnv } from '../src/llm/index.js';
import { scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

describe('modelsFromEnv', () => {
  test('should define models from REWARDKIT_MODEL_<NAME>_* variables and send their id and key', async () => {
    server.script({ reply: { content: 'hello' } });
    const models = modelsFromEnv({
      REWARDKIT_MODEL_JUDGE_BASE_URL: server.url,
      REWARDKIT_MODEL_JUDGE_MODEL: 'qwen3-32b',
      REWARDKIT_MODEL_JUDGE_API_KEY: 'sk-env',
      REWARDKIT_MODEL_MY_PANEL_BASE_URL: server.url,
      REWARDKIT_MODEL_MY_PANEL_MODEL: 'gpt-x',
      PATH: '/usr/bin',
    });
    expect([...models.keys()].sort()).toEqual(['judge', 'my_panel']);
    const answer = await models.get('judge')?.complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(answer?.content).toBe('hello');
    expect(server.requests[0]?.body.model).toBe('qwen3-32b');
    expect(server.requests[0]?.headers.authorization).toBe('Bearer sk-env');
    await models.get('my_panel')?.complete({ messages: [{ role: 'user', content: 'hi' }] });
    expect(server.requests[1]?.body.model).toBe('gpt-x');
  });

  test('should name the missing variable of a half-defined model', () => {
    expect(() => modelsFromEnv({ REWARDKIT_MODEL_JUDGE_MODEL: 'm' })).toThrow(
      /REWARDKIT_MODEL_JUDGE_BASE_URL is not set/,
    );
    expect(() =>
      modelsFromEnv({ REWARDKIT_MODEL_JUDGE_MODEL: 'm', REWARDKIT_MODEL_JUDGE_BASE_URL: 'not a url' }),
    ).toThrow(/REWARDKIT_MODEL_JUDGE_BASE_URL/);
  });

  test('should define nothing when no variable is set', () => {
    expect(modelsFromEnv({ HOME: '/root' }).size).toBe(0);
  });
});
