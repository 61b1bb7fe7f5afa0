import { describe, expect, it } from 'vitest';
import * as bench from './bench/index.js';
import * as rewardkit from './index.js';
import * as judges from './judges/index.js';
import * as llm from './llm/index.js';
import * as retrieval from './retrieval/index.js';
import * as rl from './rl/index.js';
import * as selfplay from './selfplay/index.js';
import * as server from './server/index.js';
import * as store from './store/index.js';

describe('public surface', () => {
  it('exports the verifiers, the spec and the runner from the main entry, the rest from theirs', () => {
    const entries: Record<string, string[]> = {
      '.': [
        'verifyMath',
        'mathEquivalent',
        'extractMathAnswer',
        'checkInstructions',
        'verifyReference',
        'jsonCheck',
        'createCodeSandbox',
        'verifyCode',
        'parseSpec',
        'loadSpec',
        'createEvaluator',
        'defineSourceKind',
        'scoreFile',
        'SampleSchema',
        'RewardKitError',
        'openDataset',
        'runRedteam',
        'exploits',
      ],
      judges: [
        'judgeOpenrs',
        'createOpenrsJudge',
        'loadOpenrsFiles',
        'judgeToolPlan',
        'parseToolPlan',
        'marchClaimCheck',
        'ragasFaithfulness',
        'scoreEvpvProblem',
        'corruptionCurve',
        'ruleBasedPremiseAuditor',
        'defineJudgeRole',
      ],
      llm: ['createLlamaCppModel', 'createOpenAICompatibleModel', 'wrapChatModel', 'usageOf'],
      bench: ['runBench', 'BENCH_DATASETS'],
      rl: ['shapeGroup', 'GROUP_METHODS'],
      retrieval: ['buildBm25Index', 'createBm25Retriever', 'createHttpRetriever'],
      selfplay: ['runSspRound', 'runSelfplay', 'ragCheck'],
      server: ['createRewardApp', 'listenRewardApp'],
      store: ['openSqliteStore', 'openPostgresStore'],
    };
    const modules: Record<string, object> = {
      '.': rewardkit,
      judges,
      llm,
      bench,
      rl,
      retrieval,
      selfplay,
      server,
      store,
    };
    for (const [entry, names] of Object.entries(entries)) {
      for (const name of names) expect(modules[entry], `${entry}: ${name}`).toHaveProperty(name);
    }
  });

  it('scores a sample through a preset end to end', async () => {
    const spec = rewardkit.parseSpec(rewardkit.presetText('math') ?? '', 'preset:math');
    const evaluator = rewardkit.createEvaluator(spec);
    try {
      const sample = rewardkit.SampleSchema.parse({
        id: 's1',
        prompt: '1+1?',
        response: '\\boxed{2}',
        reference: '2',
      });
      const result = await evaluator.evaluate(sample);
      expect(result.reward).toBe(1);
    } finally {
      await evaluator.close();
    }
  });
});
