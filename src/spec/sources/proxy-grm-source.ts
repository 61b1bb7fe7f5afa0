import { z } from 'zod';
import { promptText, RewardKitError, type Sample } from '../../core/index.js';
import { judgeCallsOf } from '../../llm/judge-call-of.js';
import { usageOf } from '../../llm/usage-of.js';
import { defineSourceKind } from '../source-kind.js';
import { onFirstUse } from './on-first-use.js';

const loadProxyGrm = onFirstUse(() => import('../../judges/proxy-grm/index.js'));

/** The labelled pair a rubric-producing policy judged: the two responses as it saw them, and which is better. */
const PairMetadataSchema = z.object({
  first: z.string(),
  second: z.string(),
  label: z.union([z.enum(['first', 'second']), z.literal(1), z.literal(2)]),
});

function pairOf(sample: Sample): z.output<typeof PairMetadataSchema> {
  const parsed = PairMetadataSchema.safeParse(sample.metadata);
  if (parsed.success) return parsed.data;
  throw new RewardKitError(
    'RK_SOURCE_FAILED',
    `proxy_grm needs "metadata.first" and "metadata.second" (the responses the policy judged, in the order shown) and "metadata.label" ("first" | "second" | 1 | 2): ${parsed.error.issues.map((i) => `${i.path.join('.') || '(metadata)'}: ${i.message}`).join('; ')}`,
  );
}

/**
 * Proxy-GRM as a reward for a policy that writes rubric → evaluation → answer: acc from its answer
 * block, format from its blocks, and proxy from a frozen proxy judge shown only its rubric block
 * (with the prompt and the pair), never its evaluation or answer; combined by the chosen combiner.
 */
export const proxyGrmSource = defineSourceKind({
  kind: 'proxy_grm',
  description:
    'Proxy-GRM reward of a rubric-writing judge policy: acc + proxy + format terms, combined and scaled to [0, 1]; the proxy sees only the rubric',
  params: z.strictObject({
    proxy_model: z
      .string()
      .min(1)
      .meta({ placeholder: 'name' })
      .describe('the proxy judge (a name from the models file)'),
    combiner: z
      .enum(['sum', 'gated', 'gated_mismatch', 'gated_strict'])
      .default('sum')
      .describe('how the terms become the reward (docs/rubric-quality.md)'),
    scale: z
      .enum(['unit', 'raw'])
      .default('unit')
      .describe(
        "the score: the combiner's reward mapped from its range onto [0, 1], or as it is (sum: [-2, 2.5])",
      ),
    both_orders: z
      .boolean()
      .default(true)
      .describe('ask the proxy in both orders; it must agree with itself'),
    reasks: z.number().int().nonnegative().default(2).describe("re-asks after the proxy's unreadable output"),
    temperature: z.number().min(0).max(2).optional().describe('sampling temperature of the proxy'),
  }),
  create:
    (params) =>
    async (sample, { services, signal }) => {
      const pair = pairOf(sample);
      const label = pair.label === 'first' || pair.label === 1 ? 1 : 2;
      const grm = await loadProxyGrm();
      const output = sample.response;
      const format = grm.formatTerm(output);
      const answer = grm.extractAnswer(output);
      const acc = grm.accTerm(grm.answerPositions(answer ?? ''), label);
      const rubric = grm.extractRubric(output);
      // No rubric block: nothing for the proxy to read, so the rubric carried no information.
      const proxy =
        rubric === undefined
          ? undefined
          : await grm.judgeByProxy(
              { rubric, prompt: promptText(sample), first: pair.first, second: pair.second },
              {
                model: services.model(params.proxy_model),
                bothOrders: params.both_orders,
                reasks: params.reasks,
                signal,
                ...(params.temperature !== undefined && { temperature: params.temperature }),
              },
            );
      const terms = { acc, proxy: proxy ? grm.proxyTerm(proxy.prediction, label) : (-1 as const), format };
      const reward = grm.combineProxyGrm(terms, params.combiner);
      const score = params.scale === 'unit' ? grm.unitProxyGrmReward(reward, params.combiner) : reward;
      const warnings =
        proxy?.prediction === 'transport'
          ? ['the proxy never answered: its term is 0 (unknown), not -1']
          : rubric === undefined
            ? ['no <rubric> block: the proxy term is -1']
            : [];
      return {
        score,
        verdict: terms.acc === 1 && terms.proxy === 1 ? 'pass' : 'fail',
        detail: {
          terms,
          reward,
          rewards: grm.allProxyGrmRewards(terms),
          label,
          answer: answer ?? null,
          proxy: proxy ? { prediction: proxy.prediction, orders: proxy.orders } : null,
        },
        reason: `acc ${terms.acc}, proxy ${terms.proxy}, format ${terms.format} -> ${params.combiner} ${reward}`,
        ...(proxy && { usage: usageOf(proxy.calls), calls: judgeCallsOf(proxy.calls) }),
        ...(warnings.length > 0 && { warnings }),
      };
    },
});
