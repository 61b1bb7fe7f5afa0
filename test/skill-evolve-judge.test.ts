import { describe, expect, test } from 'vitest';
import { RewardKitError } from '../src/core/index.js';
import {
  type JudgedPair,
  judgedOutcome,
  type ShownPair,
  showPair,
  splitAccuracy,
  splitPairs,
  verdictTrajectory,
} from '../src/skills/evolve-judge/index.js';
import { renderTrajectory } from '../src/skills/trace2skill/index.js';

const pair = (i: number) => ({
  id: `p${i}`,
  prompt: `question ${i}`,
  chosen: `good answer ${i}`,
  rejected: `bad answer ${i}`,
});
const PAIRS = Array.from({ length: 10 }, (_, i) => pair(i));

describe('splitPairs', () => {
  test('should split by seed deterministically, hold out round(n × fraction) pairs and keep input order', () => {
    const a = splitPairs(PAIRS, { heldOut: 0.3, seed: 7 });
    expect(splitPairs(PAIRS, { heldOut: 0.3, seed: 7 })).toEqual(a);
    expect(a.held_out).toHaveLength(3);
    expect(a.held_in).toHaveLength(7);
    const ids = [...a.held_in, ...a.held_out].map((p) => p.id).sort();
    expect(ids).toEqual(PAIRS.map((p) => p.id).sort());
    const order = (list: readonly ShownPair[]) => list.map((p) => Number(p.id.slice(1)));
    expect(order(a.held_in)).toEqual([...order(a.held_in)].sort((x, y) => x - y));
    const seeds = new Set(
      [0, 1, 2, 3, 4].map((seed) =>
        splitPairs(PAIRS, { heldOut: 0.3, seed })
          .held_out.map((p) => p.id)
          .join(),
      ),
    );
    expect(seeds.size).toBeGreaterThan(1);
  });

  test('should place the chosen response by seed and id, and record where it went', () => {
    const shown = PAIRS.map((p) => showPair(p, 0));
    for (const [i, s] of shown.entries()) {
      expect(s[s.better]).toBe(PAIRS[i]?.chosen);
      expect(s[s.better === 'first' ? 'second' : 'first']).toBe(PAIRS[i]?.rejected);
      expect(s).not.toHaveProperty('chosen');
    }
    expect(new Set(shown.map((s) => s.better)).size).toBe(2);
    expect(showPair(pair(3), 0)).toEqual(shown[3]);
    const { held_in, held_out } = splitPairs(PAIRS, { heldOut: 0.5, seed: 0 });
    for (const s of [...held_in, ...held_out]) expect(s).toEqual(showPair(pair(Number(s.id.slice(1))), 0));
  });

  test('should refuse fewer than 2 pairs in a split, duplicate ids and a fraction outside (0, 1) as usage errors', () => {
    const usage = (f: () => unknown, message: string) => {
      try {
        f();
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(RewardKitError);
        expect((error as RewardKitError).code).toBe('RK_USAGE');
        expect((error as Error).message).toContain(message);
      }
    };
    usage(() => splitPairs(PAIRS.slice(0, 3), { heldOut: 0.5, seed: 0 }), '1 held-in / 2 held-out');
    usage(() => splitPairs(PAIRS, { heldOut: 0.1, seed: 0 }), '9 held-in / 1 held-out');
    usage(
      () => splitPairs([pair(1), pair(1), pair(2), pair(3)], { heldOut: 0.5, seed: 0 }),
      'duplicate pair id "p1"',
    );
    usage(() => splitPairs(PAIRS, { heldOut: 1, seed: 0 }), 'must be in (0, 1)');
    expect(splitPairs(PAIRS.slice(0, 4), { heldOut: 0.5, seed: 0 }).held_out).toHaveLength(2);
  });
});

const judged = (
  verdict: JudgedPair['verdict'],
  better: 'first' | 'second',
  detail?: unknown,
): JudgedPair => ({
  key: 'k',
  id: 'p1',
  skill: 'h',
  better,
  verdict,
  outcome: judgedOutcome(verdict, better),
  ...(verdict === 'invalid' && { reason: 'forward order: every step failed' }),
  detail,
  usage: { calls: 4, prompt_tokens: 40, completion_tokens: 20, latency_ms: 1, retries: 0, cache_hits: 0 },
});

describe('verdict → outcome → trajectory', () => {
  test('should count only the labelled position as right: the other, a tie, inconsistent orders and invalid are wrong', () => {
    expect(judgedOutcome('first', 'first')).toBe('correct');
    expect(judgedOutcome('second', 'first')).toBe('wrong');
    expect(judgedOutcome('tie', 'second')).toBe('tie');
    expect(judgedOutcome('inconsistent', 'second')).toBe('inconsistent');
    expect(judgedOutcome('invalid', 'first')).toBe('invalid');
    const acc = splitAccuracy(
      (['first', 'second', 'tie', 'inconsistent', 'invalid'] as const).map((v) => judged(v, 'first')),
    );
    expect(acc).toEqual({
      pairs: 5,
      accuracy: 0.2,
      correct: 1,
      wrong: 1,
      tie: 1,
      inconsistent: 1,
      invalid: 1,
    });
  });

  const shown: ShownPair = {
    id: 'p1',
    prompt: 'Which city?',
    first: 'Paris [doc]',
    second: 'Lyon',
    better: 'first',
  };
  const detail = {
    skill: 'reward-judge',
    orders: [
      {
        order: 'forward',
        status: 'ok',
        shown: 'B',
        route: 'final_answer',
        reason: 'B is longer',
        trace: {
          stages: [
            {
              stage: 'agent',
              step: 1,
              outcome: 'tool calls',
              toolCalls: [{ tool: 'use_skill', arguments: { name: 'reward-judge' } }],
            },
            {
              stage: 'agent',
              step: 2,
              outcome: 'answered (final_answer)',
              toolCalls: [
                { tool: 'view_resource', arguments: { path: 'references/rag-grounding.md' } },
                { tool: 'final_answer', arguments: { verdict: 'B' } },
              ],
            },
          ],
          skillOpened: true,
          viewed: ['references/rag-grounding.md'],
          runs: 0,
          evidence: [],
          withheld: [],
          removedLabelKeys: [],
        },
      },
    ],
  };

  test("should make a wrong verdict a failed run whose text is the judge's trace, the label only in the outcome", () => {
    const t = verdictTrajectory(shown, judged('second', 'first', detail));
    expect(t.outcome).toEqual({
      pass: false,
      score: 0,
      feedback: 'the verdict was wrong: it picked the worse response',
    });
    expect(t.reference).toBe('first');
    const { text } = renderTrajectory(t);
    // The gate checks the label: nothing the analyst reads names the better position.
    expect(text).not.toMatch(/better response is|the first one|the second one/);
    expect(text).toContain('First response:');
    expect(text).toContain('use_skill({"name":"reward-judge"})');
    expect(text).toContain('view_resource({"path":"references/rag-grounding.md"})');
    expect(text).toContain('resources viewed: references/rag-grounding.md');
    expect(text).toContain('answer: B via final_answer — B is longer');
    expect(text).toContain('verdict: second');
    // The label is the outcome's: nothing before the outcome names the better response.
    const run = text.slice(0, text.indexOf('Outcome:'));
    expect(run).not.toMatch(/better response is|chosen|rejected|label/);
    expect(text).not.toContain('Reference');
  });

  test('should make a right verdict a passed run, and say how each other failure went', () => {
    expect(verdictTrajectory(shown, judged('first', 'first', detail)).outcome).toEqual({
      pass: true,
      score: 1,
      feedback: 'the verdict was right',
    });
    expect(verdictTrajectory(shown, judged('inconsistent', 'first')).outcome.feedback).toContain(
      'the two orders disagreed',
    );
    expect(verdictTrajectory(shown, judged('tie', 'first')).outcome.feedback).toContain('called a tie');
    const invalid = verdictTrajectory(shown, judged('invalid', 'first'));
    expect(invalid.outcome.pass).toBe(false);
    expect(invalid.steps?.at(-1)?.content).toBe('verdict: invalid (forward order: every step failed)');
  });
});
