import { describe, expect, test } from 'vitest';
import type { PairwiseJudge } from '../../judges/index.js';
import { readSkillFiles } from '../read-skill-files.js';
import type { Skill } from '../skill-package.js';
import type { FailureAnalysis } from '../trace2skill/analyst-roles.js';
import type { Trajectory } from '../trace2skill/trajectory.js';
import type { ShownPair } from './labelled-pair.js';
import { rerunGate } from './rerun-gate.js';
import { LESSONS_UNDER_TEST } from './skill-with-lessons.js';

const RULE = 'Prefer the response that cites the document';
const files = readSkillFiles('skills/reward-judge');
const pair: ShownPair = { id: 'p', prompt: 'q', first: 'cited [doc]', second: 'uncited', better: 'first' };
const trajectory = (id: string): Trajectory => ({
  id,
  task: 't',
  steps: [{ content: 'x' }],
  outcome: { pass: false },
});
const analysis = (content: string, answer: string | null): FailureAnalysis => ({
  failure_cause: { title: 'c', description: 'd', content: 'e' },
  lessons: [{ title: 'l', description: 'd', content }],
  fix: { description: 'what to do', answer },
});

/** Picks the cited response only when its skill holds the rule; records the skills it was given. */
function scriptedJudge(seen: Skill[]) {
  return (skill: Skill): PairwiseJudge => ({
    name: 'scripted',
    judge: async () => {
      seen.push(skill);
      return { verdict: skill.body.includes(RULE) ? 'first' : 'second', comparisons: [], calls: [] };
    },
  });
}

describe('rerunGate', () => {
  test('should pass a lesson that changes the re-run verdict to the label, and fail one that only copies an answer', async () => {
    const seen: Skill[] = [];
    const reruns: string[] = [];
    const gate = rerunGate({
      files,
      pairs: new Map([[pair.id, pair]]),
      judgeWith: scriptedJudge(seen),
      onRerun: (p, j) => reruns.push(`${p.id}:${j.verdict}`),
    });
    expect(await gate(trajectory('p'), analysis(RULE, null))).toBe(true);
    // The right answer, copied, with a lesson that does not change the judge: no pass.
    expect(await gate(trajectory('p'), analysis('The verdict was wrong.', 'first'))).toBe(false);
    expect(reruns).toEqual(['p:first', 'p:second']);
    expect(seen[0]?.body).toContain(LESSONS_UNDER_TEST);
    expect(seen[0]?.body).toContain(`- **l**: ${RULE}`);
    // The skill passed in is untouched.
    expect(files.get('SKILL.md')).not.toContain(LESSONS_UNDER_TEST);
  });

  test('should leave a run that is not a held-in pair ungated, and fail lessons that break the skill', async () => {
    const seen: Skill[] = [];
    const gate = rerunGate({ files, pairs: new Map([[pair.id, pair]]), judgeWith: scriptedJudge(seen) });
    expect(await gate(trajectory('other'), analysis(RULE, null))).toBeUndefined();
    const tooLong = Array.from({ length: 600 }, () => RULE).join('\n');
    expect(await gate(trajectory('p'), analysis(tooLong, null))).toBe(false);
    expect(seen).toHaveLength(0);
  });
});
