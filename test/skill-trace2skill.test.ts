import { describe, expect, test } from 'vitest';
import { createOpenAICompatibleModel } from '../src/llm/index.js';
import { evolveSkill, type Trajectory } from '../src/skills/index.js';
import {
  type AnalysisRecord,
  applyWithFixes,
  mapAnalyses,
  proposePatches,
  reducePatches,
  referenceEvaluator,
  type SupportedPatch,
} from '../src/skills/trace2skill/index.js';
import { type RecordedRequest, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

const model = () =>
  createOpenAICompatibleModel({
    name: 'analyst',
    model: 'analyst',
    endpoints: [{ baseURL: server.url }],
    backoffBaseMs: 1,
    maxRetries: 0,
  });

const SKILL = `---
name: demo-skill
description: A demo skill for tests.
---
# Demo Skill

## Checks

- Read the task twice.

## Output

Answer with one line.
`;
const files = () =>
  new Map([
    ['SKILL.md', SKILL],
    ['resources.yaml', 'resources: []\n'],
  ]);

const run = (id: string, pass: boolean, extra: Partial<Trajectory> = {}): Trajectory => ({
  id,
  task: `task of ${id}`,
  transcript: `the agent worked on ${id}`,
  outcome: { pass },
  ...extra,
});

const lesson = (title: string) => ({ title, description: `about ${title}`, content: `do ${title}` });
const failure = (answer: string | null, lessons = 1) =>
  JSON.stringify({
    failure_cause: lesson('cause'),
    lessons: Array.from({ length: lessons }, (_, i) => lesson(`memory ${i + 1}`)),
    fix: { description: 'check the units', answer },
  });
const success = (n: number) =>
  JSON.stringify({ lessons: Array.from({ length: n }, (_, i) => lesson(`win ${i + 1}`)) });
const edit = (fields: Record<string, unknown>) => ({
  file: 'SKILL.md',
  op: 'append_to_section',
  target_section: '## Checks',
  target_text: null,
  content: '- x',
  old_text: null,
  after_section: null,
  ...fields,
});

const systemOf = (r: RecordedRequest) =>
  String(r.body.messages?.find((m) => m.role === 'system')?.content ?? '');
const userOf = (r: RecordedRequest) => String(r.body.messages?.find((m) => m.role === 'user')?.content ?? '');
const byRole = (phrase: string) => server.requests.filter((r) => systemOf(r).includes(phrase));
const ANALYST = 'You analyse one run';
const MERGER = 'You merge patches';

describe('MAP analysis', () => {
  test('should keep lessons whose fix passes the evaluator, count gated-out ones, mark ungated ones and cap successes at 3', async () => {
    server.script(
      { match: { contains: 'Instance: t1' }, reply: { content: failure('42', 2) } },
      { match: { contains: 'Instance: t2' }, reply: { content: failure(null) } },
      { match: { contains: 'Instance: t4' }, reply: { content: failure('8', 1) } },
      { match: { contains: 'Instance: t3' }, reply: { content: success(4) } },
    );
    const written: AnalysisRecord[] = [];
    const got = await mapAnalyses(
      [
        run('t1', false, { reference: '42' }),
        run('t2', false),
        run('t3', true),
        run('t4', false, { reference: '7' }),
      ],
      { model: model(), evaluate: referenceEvaluator, concurrency: 2, onRecord: (r) => void written.push(r) },
    );
    expect(got.records.map((r) => [r.instance, r.gate, r.items.length, r.gated_out, r.truncated])).toEqual([
      ['t1', 'passed', 3, 0, 0],
      ['t2', 'ungated', 2, 0, 0],
      ['t3', 'none', 3, 0, 1],
      ['t4', 'failed', 0, 2, 0],
    ]);
    expect(got.records[0]?.items.map((i) => i.type)).toEqual([
      'failure_cause',
      'failure_memory',
      'failure_memory',
    ]);
    expect(got.records[2]?.items.every((i) => i.type === 'success_memory')).toBe(true);
    expect(written).toHaveLength(4);
    // One analyst call per run; the reference never reaches the model.
    expect(byRole(ANALYST)).toHaveLength(4);
    expect(server.requests.some((r) => JSON.stringify(r.body).includes('"42"'))).toBe(false);
    expect(server.requests.every((r) => !userOf(r).includes('reference'))).toBe(true);
  });

  test('should skip runs already analysed with the same content and analyse a changed one again', async () => {
    server.script({ match: { contains: ANALYST }, reply: { content: failure(null) } });
    const first = await mapAnalyses([run('a', false), run('b', false)], { model: model() });
    server.requests.length = 0;
    const again = await mapAnalyses([run('a', false), run('b', false, { transcript: 'changed' })], {
      model: model(),
      done: first.records,
    });
    expect(again.resumed).toBe(1);
    expect(byRole(ANALYST).map((r) => userOf(r).match(/Instance: (\w+)/)?.[1])).toEqual(['b']);
  });

  test('should record an analysis whose output never parses as invalid, with the reason', async () => {
    server.script({ match: { contains: ANALYST }, reply: { content: 'not json' } });
    const got = await mapAnalyses([run('a', false)], { model: model(), reasks: 0 });
    expect(got.records[0]).toMatchObject({ status: 'invalid', items: [], gate: 'none' });
    expect(got.records[0]?.reason).toBeTruthy();
  });
});

const record = (instance: string, pass = false): AnalysisRecord => ({
  instance,
  hash: 'h',
  pass,
  status: 'ok',
  gate: 'ungated',
  items: [{ type: 'failure_memory', title: `lesson of ${instance}`, description: 'd', content: 'c' }],
  gated_out: 0,
  truncated: 0,
  usage: { calls: 1, prompt_tokens: 1, completion_tokens: 1, latency_ms: 1, retries: 0, cache_hits: 0 },
});

describe('patch proposal', () => {
  test('should propose one patch per batch seeing the frozen skill, crediting each edit to the instances it cites', async () => {
    server.script(
      {
        match: { contains: 'lesson of r1' },
        reply: {
          content: JSON.stringify({
            reasoning: 'r',
            edits: [edit({ supports: ['r1', 'r3', 'unknown'] }), edit({ content: '- y', supports: [] })],
            changelog: 'c',
          }),
        },
      },
      { match: { contains: 'lesson of r6' }, reply: { content: '{"reasoning": "r", "edits": [' } },
    );
    const records = ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'].map((id) => record(id));
    const got = await proposePatches(records, files(), { model: model(), reasks: 0 });
    // 8 records in batches of 5 → [5, 3]; the second proposal is malformed JSON: dropped, counted.
    expect(got.failed).toBe(1);
    expect(got.patches).toHaveLength(1);
    expect(got.patches[0]?.edits.map((e) => e.support)).toEqual([
      ['r1', 'r3'],
      ['r1', 'r2', 'r3', 'r4', 'r5'],
    ]);
    const first = server.requests.find((r) => userOf(r).includes('lesson of r1')) as RecordedRequest;
    expect(userOf(first)).toContain('## Checks');
    expect(userOf(first)).toMatch(/<file-[0-9a-f]+>/);
  });
});

const supported = (content: string, support: string[]): SupportedPatch => ({
  reasoning: `r ${content}`,
  changelog: `c ${content}`,
  edits: [
    {
      edit: {
        file: 'SKILL.md',
        op: 'append_to_section',
        target_section: '## Checks',
        target_text: undefined,
        content,
        old_text: undefined,
        after_section: undefined,
      },
      support,
    },
  ],
});

describe('REDUCE', () => {
  test('should pass a failed merge through, show prevalence to the merger and never emit more edits than its inputs', async () => {
    const patches = Array.from({ length: 8 }, (_, i) => supported(`- lesson-${i + 1}`, [`t${i + 1}`]));
    server.script(
      // Level 1, group [1..5]: malformed every time → passed through.
      {
        match: { contains: /You merge patches[\s\S]*lesson-1\b(?![\s\S]*P6\.E1)/ },
        times: 1,
        reply: { content: 'oops' },
      },
      // Level 1, group [6..8]: one edit from three.
      {
        match: { contains: /You merge patches[\s\S]*lesson-6/ },
        times: 1,
        reply: {
          content: JSON.stringify({
            reasoning: 'same lesson',
            edits: [edit({ content: '- lessons 6-8', merged_from: ['P1.E1', 'P2.E1', 'P3.E1'] })],
            changelog: 'merged 6-8',
          }),
        },
      },
      // Level 2: six inputs; the merger answers eight edits, one citing nothing real.
      {
        match: { contains: MERGER },
        reply: {
          content: JSON.stringify({
            reasoning: 'all',
            edits: [
              ...Array.from({ length: 7 }, (_, i) =>
                edit({ content: `- out ${i}`, merged_from: [`P${(i % 6) + 1}.E1`] }),
              ),
              edit({ content: '- invented', merged_from: ['P9.E9'] }),
            ],
            changelog: 'merged all',
          }),
        },
      },
    );
    const got = await reducePatches(patches, files(), { model: model(), reasks: 0 });
    expect(got).toMatchObject({
      levels: 2,
      merges: 2,
      failedMerges: 1,
      truncatedEdits: 1,
      unsupportedEdits: 1,
    });
    expect(got.forcedMerge).toBe(false);
    expect(got.patch?.edits).toHaveLength(6);
    expect(got.patch?.edits[5]?.support).toEqual(['t6', 't7', 't8']);
    const last = byRole(MERGER).at(-1) as RecordedRequest;
    expect(userOf(last)).toContain('P6.E1 (prevalence 3: t6, t7, t8)');
    expect(userOf(last)).toContain('P1.E1 (prevalence 1: t1)');
  });

  test('should give leftover patches one forced merge, and concatenate them when even that fails', async () => {
    server.script({ match: { contains: MERGER }, reply: { content: 'never json' } });
    const patches = Array.from({ length: 3 }, (_, i) => supported(`- l${i}`, [`t${i}`]));
    const got = await reducePatches(patches, files(), { model: model(), reasks: 0 });
    expect(got).toMatchObject({ levels: 1, failedMerges: 2, forcedMerge: true, forcedMergeFailed: true });
    expect(got.patch?.edits.map((e) => e.edit.content)).toEqual(['- l0', '- l1', '- l2']);
    expect(systemOf(byRole(MERGER).at(-1) as RecordedRequest)).toContain('left over');
  });
});

describe('apply with fix rounds', () => {
  const filler = `## Filler\n\n${Array.from({ length: 520 }, (_, i) => `- filler ${i}`).join('\n')}`;
  const longPatch: SupportedPatch = {
    reasoning: 'r',
    changelog: 'c',
    edits: [
      {
        edit: {
          file: 'SKILL.md',
          op: 'add_section',
          target_section: undefined,
          target_text: undefined,
          content: filler,
          old_text: undefined,
          after_section: 'checks',
        },
        support: ['t1'],
      },
    ],
  };

  test('should ask for a minimal fix while the skill is invalid and stop once it validates', async () => {
    server.script(
      {
        match: { contains: 'fails its package validator' },
        times: 1,
        reply: { content: JSON.stringify({ reasoning: 'no', edits: [], changelog: '' }) },
      },
      {
        match: { contains: 'fails its package validator' },
        reply: {
          content: JSON.stringify({
            reasoning: 'drop the filler',
            edits: [edit({ op: 'delete_section', target_section: '## Filler', content: null })],
            changelog: 'removed filler',
          }),
        },
      },
    );
    const source = files();
    const got = await applyWithFixes(source, longPatch, { model: model() });
    expect(got.fixRounds.map((r) => r.violationsAfter)).toEqual([1, 0]);
    expect(got.valid).toBe(true);
    expect(got.files.get('SKILL.md')).toBe(SKILL);
    // The translated anchor is what was applied; the source map is untouched.
    expect(got.patch.edits[0]?.after_section).toBe('## Checks');
    expect(source.get('SKILL.md')).toBe(SKILL);
    const request = userOf(byRole('fails its package validator')[0] as RecordedRequest);
    expect(request).toMatch(/SKILL\.md:504: body has 532 lines/);
  });

  test('should stop after 3 rounds and report the skill invalid', async () => {
    server.script({ match: { contains: 'fails its package validator' }, reply: { content: 'nope' } });
    const got = await applyWithFixes(files(), longPatch, { model: model(), reasks: 0 });
    expect(got.fixRounds).toHaveLength(3);
    expect(got.valid).toBe(false);
    expect(got.violations.map((v) => v.code)).toEqual(['body_too_long']);
  });

  test('should leave protected files untouched and count the skipped edits', async () => {
    const baseEdit = (longPatch.edits[0] as SupportedPatch['edits'][number]).edit;
    const patch: SupportedPatch = {
      reasoning: '',
      changelog: '',
      edits: [
        {
          edit: { ...baseEdit, file: 'resources.yaml', op: 'create', content: 'x' },
          support: [],
        },
        {
          edit: {
            ...baseEdit,
            file: 'resources.yaml',
            op: 'delete_file',
            content: undefined,
          },
          support: [],
        },
      ],
    };
    const got = await applyWithFixes(files(), patch, { model: model(), protect: ['resources.yaml'] });
    expect(got.skipped.map((s) => s.cause)).toEqual(['protected', 'protected']);
    expect(got.files.get('resources.yaml')).toBe('resources: []\n');
    expect(server.requests).toHaveLength(0);
  });
});

describe('evolveSkill', () => {
  const scriptPipeline = () =>
    server.script(
      { match: { contains: ANALYST }, reply: { content: failure(null) } },
      {
        match: { contains: 'You improve an agent skill' },
        reply: {
          content: JSON.stringify({
            reasoning: 'r',
            edits: [
              edit({ content: '- Check the units before answering.', supports: ['a', 'b'] }),
              edit({
                op: 'insert_after',
                target_section: null,
                target_text: 'nowhere in the skill',
                supports: ['a'],
              }),
            ],
            changelog: 'units',
          }),
        },
      },
    );

  test('should pick the seed with the best held-in score and report held-out before and after', async () => {
    scriptPipeline();
    const got = await evolveSkill({
      files: files(),
      trajectories: [run('a', false), run('b', false), run('c', true)],
      model: model(),
      mode: 'deepen',
      seeds: 2,
      score: (f, split) => {
        const text = f.get('SKILL.md') ?? '';
        return (text.includes('units') ? 2 : 1) + (split === 'held_out' ? 10 : 0);
      },
    });
    expect(got.report.trajectories).toMatchObject({ given: 3, not_analysed: 1, analysed: 2, failed: 2 });
    expect(byRole(ANALYST)).toHaveLength(2);
    expect(got.report.seeds).toHaveLength(2);
    expect(got.report.seeds[0]?.edits).toMatchObject({ merged: 2, dropped_at_translation: 1, applied: 1 });
    expect(got.report).toMatchObject({ selection: 'held_in', selected_seed: 0, valid: true });
    expect(got.report.scores).toEqual({
      before: { held_in: 1, held_out: 11 },
      after: { held_in: 2, held_out: 12 },
    });
    expect(got.files.get('SKILL.md')).toContain('- Check the units before answering.');
    expect(got.report.usage_by_role.trace_failure_analyst?.calls).toBe(2);
  });
});
