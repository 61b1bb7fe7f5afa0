import { describe, expect, it } from 'vitest';
import { httpBatchReward } from '../lab/rlvr-http-reward.js';
import { inProcessBatch, naiveSpecText, rewardFromSpec, verifierSpecText } from '../lab/rlvr-rewards.js';
import { answerLine, rlvrTasks } from '../lab/rlvr-tasks.js';
import { startRlvrRewardServer } from './rlvr-reward-server.js';

describe('startRlvrRewardServer', () => {
  it.each([
    ['verifier', verifierSpecText('addition')],
    ['naive', naiveSpecText()],
  ])(
    'should score the %s spec over HTTP as in process, and fail (never 0) once closed',
    async (name, text) => {
      const tasks = rlvrTasks('addition', 4, 3, { digits: 2 });
      const items = tasks.flatMap((task, i) => [
        { task, response: answerLine(task.reference), id: `right-${i}` },
        { task, response: `${answerLine('0')} ${task.reference}`, id: `listed-${i}` },
        { task, response: 'no idea', id: `none-${i}` },
      ]);
      const server = await startRlvrRewardServer(text, name);
      const http = httpBatchReward(server.url, server.close);
      const local = inProcessBatch(rewardFromSpec(text, name));
      try {
        const scored = await http.scoreBatch(items);
        expect(scored).toEqual(await local.scoreBatch(items));
        expect(scored.some((s) => 'reward' in s && s.reward === 1)).toBe(true);
      } finally {
        await http.close();
        await local.close();
      }
      for (const s of await http.scoreBatch(items))
        expect(s).toEqual({ failed: expect.stringMatching(/^http: .* unreachable \(ECONNREFUSED\)$/) });
    },
  );
});
