import { createHash } from 'node:crypto';
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { readJsonl, repoRoot, runCli, tempDir } from './cli-harness.js';
import { type RecordedRequest, type ScriptRule, scriptedServerPerTest } from './scripted-openai-server.js';

const server = scriptedServerPerTest();

/** The rule the scripted proposer adds, and which the scripted judge obeys once its skill holds it. */
const RULE = 'Prefer the response that cites the document';

function hashDir(dir: string): string {
  const hash = createHash('sha256');
  const walk = (rel: string) => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const path = join(rel, name);
      if (statSync(join(dir, path)).isDirectory()) walk(path);
      else
        hash
          .update(path)
          .update('\0')
          .update(readFileSync(join(dir, path)))
          .update('\0');
    }
  };
  walk('');
  return hash.digest('hex');
}

const call = (name: string, args: unknown) => ({
  content: '',
  toolCalls: [{ name, arguments: JSON.stringify(args) }],
});
const final = (verdict: 'A' | 'B') =>
  call('final_answer', { verdict, confidence: 0.8, reason: `${verdict} is better` });

/** Any character, newlines included. */
const ANY = '[\\s\\S]';
// What a response block of the shown pair holds: `Response A:` up to `Response B:`, or B's block on.
const inA = (marker: string) => `Response A:(?:(?!Response B:)${ANY})*${marker}`;
const inB = (marker: string) => `Response B:${ANY}*${marker}`;
const OPENED = `(?=${ANY}*## Tools now available)`;
const HAS_RULE = `(?=${ANY}*${RULE})`;
const judgeRule = (pattern: string, verdict: 'A' | 'B'): ScriptRule => ({
  match: { contains: new RegExp(`^${pattern}`) },
  reply: final(verdict),
});

/**
 * The scripted models. The judge opens the skill, then: with the rule in its skill it picks the
 * response citing the document ("[doc]"); without it, the other one (wrong on every citation
 * pair); on plain pairs it always rejects the "(guess)" response (right before and after). The
 * analyst of a failed run proposes the rule as a lesson (`copying`: a lesson that only restates a
 * verdict, with the corrected answer guessed); the proposer appends the rule to "Biases to resist".
 */
function script(options: { copying?: boolean; acting?: boolean } = {}) {
  const lesson = { title: 'citations', description: 'grounded answers', content: RULE };
  const copied = {
    title: 'verdict',
    description: 'the verdict',
    content: 'The verdict was wrong: pick the other one.',
  };
  // An acting analyst asks for three tools at once (one over its cap of 2), then answers once told
  // its budget is spent.
  const acting: ScriptRule[] = [
    {
      match: { contains: 'The tool budget is spent' },
      reply: {
        content: JSON.stringify({
          failure_cause: {
            title: 'ignored citations',
            description: 'it preferred the uncited answer',
            content: 'x',
          },
          lessons: [lesson],
          fix: { description: 'prefer the cited response', answer: null },
        }),
      },
    },
    {
      match: { contains: new RegExp(`You analyse one run${ANY}*Outcome: FAILED`) },
      reply: {
        content: '',
        toolCalls: [
          {
            id: 'v1',
            name: 'view_resource',
            arguments: JSON.stringify({ path: 'references/rag-grounding.md' }),
          },
          { id: 'v2', name: 'list_resources', arguments: '{}' },
          { id: 'v3', name: 'view_resource', arguments: JSON.stringify({ path: 'references/writing.md' }) },
        ],
      },
    },
  ];
  server.script(
    ...(options.acting ? acting : []),
    {
      match: { contains: new RegExp(`You analyse one run${ANY}*Outcome: FAILED`) },
      reply: {
        content: JSON.stringify({
          failure_cause: {
            title: 'ignored citations',
            description: 'it preferred the uncited answer',
            content: 'x',
          },
          lessons: [options.copying ? copied : lesson],
          fix: options.copying
            ? { description: 'answer the other way', answer: 'first' }
            : { description: 'prefer the cited response', answer: null },
        }),
      },
    },
    {
      match: { contains: /You analyse one run[\s\S]*Outcome: PASSED/ },
      reply: {
        content: JSON.stringify({ lessons: [{ ...lesson, title: 'guesses', content: 'Reject guesses.' }] }),
      },
    },
    {
      match: { contains: 'You improve an agent skill' },
      reply: {
        content: JSON.stringify({
          reasoning: 'the judge ignored citations',
          edits: [
            {
              file: 'SKILL.md',
              op: 'append_to_section',
              target_section: 'Biases to resist',
              target_text: null,
              content: `- **Citations**: ${RULE} it draws on over an uncited one.`,
              old_text: null,
              after_section: null,
              supports: [],
            },
          ],
          changelog: 'Prefer cited responses.',
        }),
      },
    },
    judgeRule(`${HAS_RULE}${OPENED}${ANY}*${inA('\\[doc\\]')}`, 'A'),
    judgeRule(`${HAS_RULE}${OPENED}${ANY}*${inB('\\[doc\\]')}`, 'B'),
    judgeRule(`${OPENED}${ANY}*${inA('\\(guess\\)')}`, 'B'),
    judgeRule(`${OPENED}${ANY}*${inB('\\(guess\\)')}`, 'A'),
    judgeRule(`${OPENED}${ANY}*${inA('\\[doc\\]')}`, 'B'),
    judgeRule(`${OPENED}${ANY}*${inB('\\[doc\\]')}`, 'A'),
    {
      match: { contains: 'You are a reward judge with tools' },
      reply: call('use_skill', { name: 'reward-judge', reason: 'open it' }),
    },
  );
}

function setup(rows: unknown[]) {
  const root = tempDir();
  const skill = join(root, 'reward-judge');
  cpSync(join(repoRoot, 'skills/reward-judge'), skill, { recursive: true });
  const input = join(root, 'pairs.jsonl');
  writeFileSync(input, rows.map((r) => JSON.stringify(r)).join('\n'));
  const models = join(root, 'models.yaml');
  writeFileSync(
    models,
    `models:\n  judge:\n    model: judge\n    base_url: ${server.url}\n    max_retries: 0\n  analyst:\n    model: analyst\n    base_url: ${server.url}\n    max_retries: 0\n`,
  );
  return { skill, input, models, out: join(root, 'evolved') };
}

const citation = (i: number) => ({
  id: `cite-${i}`,
  prompt: `Using the document, what does section ${i} say?`,
  chosen: `Section ${i} sets the limit at ${i * 10} units [doc].`,
  rejected: `Section ${i} is about limits, and limits matter a great deal in many settings, so it sets one.`,
});
const plain = (i: number) => ({
  id: `plain-${i}`,
  prompt: `What is ${i} + ${i}?`,
  first: `It is ${2 * i}.`,
  second: `It is ${2 * i + 1} (guess).`,
  label: 'first',
});
const PAIRS = [
  citation(1),
  plain(1),
  citation(2),
  citation(3),
  plain(2),
  citation(4),
  citation(5),
  citation(6),
];

const textOf = (r: RecordedRequest) =>
  (r.body.messages ?? []).map((m) => JSON.stringify(m.content)).join('\n');
const isJudge = (r: RecordedRequest) => textOf(r).includes('You are a reward judge');

describe('rewardkit skill evolve-judge', () => {
  test('should evolve the judge skill from its wrong verdicts and raise held-out accuracy, never touching the source, and resume without calls', async () => {
    const { skill, input, models, out } = setup([
      ...PAIRS,
      { id: 'bad', prompt: 'q', first: 'a', second: 'b' },
    ]);
    script();
    const before = hashDir(skill);
    const args = [
      'skill',
      'evolve-judge',
      '--skill',
      skill,
      '--input',
      input,
      '--models',
      models,
      '--model',
      'judge',
      '--analyst',
      'analyst',
      '--split-seeds',
      '1',
      '--out',
      out,
    ];
    const run = await runCli(args);
    expect(run.stderr).toContain(`warning: skipped row: ${input}:9: field "label"`);
    expect(run.code).toBe(0);
    expect(hashDir(skill)).toBe(before);

    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(report.input).toMatchObject({ rows_read: 8, rows_rejected: 1 });
    expect(report.split.held_in).toHaveLength(4);
    expect(report.split.held_out).toHaveLength(4);
    const { before: b, after: a } = report.accuracy;
    expect(b.held_out.accuracy).toBeLessThan(a.held_out.accuracy);
    expect(a.held_out.accuracy).toBe(1);
    expect(a.held_in.accuracy).toBe(1);
    expect(b.held_in.wrong).toBeGreaterThan(0);
    expect(report.held_out_gain).toBeCloseTo(a.held_out.accuracy - b.held_out.accuracy);
    expect(report.trajectories.failed).toBe(b.held_in.pairs - b.held_in.correct);
    expect(report.evolve).toMatchObject({ mode: 'combined', valid: true, selection: 'held_in' });
    expect(report.evolve.lessons.runs_gate_passed).toBe(report.trajectories.failed);
    // Each pair: two orders, each opening the skill and answering (2 calls).
    expect(report.cost.judge_held_in_before).toMatchObject({ judgments: 4, calls: 16, resumed: 0 });
    expect(report.cost.judge_held_out_after).toMatchObject({ judgments: 4, calls: 16 });
    expect(report.cost.total.calls).toBe(server.requests.length);
    expect(report.split_seeds.cost.total).toEqual(report.cost.total);
    expect(run.stdout).toMatch(/held-out accuracy: \d+\.\d% → 100\.0% \(4 pairs\) \+\d+\.\d points/);

    expect(readFileSync(join(out, 'skill/SKILL.md'), 'utf8')).toContain(RULE);
    expect(readFileSync(join(out, 'CHANGELOG.md'), 'utf8')).toContain('Prefer cited responses.');
    expect(JSON.parse(readFileSync(join(out, 'patch.json'), 'utf8')).edits[0].target_section).toBe(
      '## Biases to resist',
    );

    // A held-out citation pair whose verdict flipped once the rule was in the judge's skill.
    const judgments = readJsonl(join(out, 'judgments.jsonl'));
    const heldOut = new Set((report.split.held_out as Array<{ id: string }>).map((p) => p.id));
    const flipped = [...heldOut].filter((id) => {
      const of = judgments.filter((j) => j.id === id);
      return of.some((j) => j.outcome === 'wrong') && of.some((j) => j.outcome === 'correct');
    });
    expect(flipped.length).toBeGreaterThan(0);
    expect(flipped.every((id) => id.startsWith('cite-'))).toBe(true);

    // No label reaches a model: the judge never reads chosen/rejected, no request holds a label key.
    const judgeRequests = server.requests.filter(isJudge);
    expect(judgeRequests.length).toBeGreaterThan(0);
    for (const r of judgeRequests) expect(textOf(r)).not.toMatch(/chosen|rejected/i);
    for (const r of server.requests)
      expect(textOf(r)).not.toMatch(/\\"(chosen|rejected|label|better)\\"\s*:/);
    // The held-out pairs never reach the analyst.
    const analystText = server.requests
      .filter((r) => !isJudge(r))
      .map(textOf)
      .join('\n');
    for (const id of heldOut) expect(analystText).not.toContain(`Instance: ${id}`);

    // The gate's independence: each failed pair is judged again under its lessons, and what the
    // gate compares (the label) is never in an analyst's text: the feedback names no position and
    // nothing says which response is better.
    expect(report.cost.judge_gate).toMatchObject({ judgments: report.trajectories.failed });
    const reruns = judgeRequests.filter((r) => textOf(r).includes('## Lessons under test'));
    expect(reruns.length).toBeGreaterThan(0);
    const analystRequests = server.requests.filter((r) => textOf(r).includes('You analyse one run'));
    expect(analystRequests.length).toBe(4);
    for (const r of analystRequests) {
      const text = textOf(r);
      expect(text).not.toMatch(/better (response|one) is|is the (first|second) one|\\"better\\"/i);
      const feedback = text.match(/<feedback-\w+>([\s\S]*?)<\/feedback-/)?.[1] ?? '';
      expect(feedback).not.toBe('');
      expect(feedback).not.toMatch(/first|second/i);
    }

    // A rerun reuses every judgment and analysis; only the patch stages ask again (the response
    // cache, off here, would answer those too).
    const calls = server.requests.length;
    const again = await runCli(args);
    expect(again.code).toBe(0);
    const rerun = server.requests.slice(calls).map(textOf);
    expect(rerun.length).toBeGreaterThan(0);
    for (const text of rerun) expect(text).toContain('You improve an agent skill');
    const resumed = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    expect(resumed.accuracy).toEqual(report.accuracy);
    expect(resumed.cost.judge_held_in_before).toMatchObject({ judgments: 4, calls: 0, resumed: 4 });
    expect(resumed.evolve.trajectories).toMatchObject({ resumed: 4, analysed: 0 });
  });

  test('should report held-out accuracy over three split seeds, paired, with the verdict and its interval', async () => {
    const { skill, input, models, out } = setup(PAIRS);
    script();
    const run = await runCli([
      'skill',
      'evolve-judge',
      '--skill',
      skill,
      '--input',
      input,
      '--models',
      models,
      '--model',
      'judge',
      '--analyst',
      'analyst',
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    // Every call of the three split seeds' loops is counted; the top level is the first seed's loop.
    expect(report.split_seeds.cost.total.calls).toBe(server.requests.length);
    expect(report.cost.total.calls).toBeLessThan(server.requests.length);
    // Held-out gain over three split seeds, paired, by the evidence standard: the rule flips every
    // held-out citation pair, so each seed gains and the verdict holds.
    const seeds = report.split_seeds;
    expect(seeds.per_seed.map((s: { seed: number }) => s.seed)).toEqual([0, 1, 2]);
    for (const s of seeds.per_seed) {
      expect(s.valid).toBe(true);
      expect(s.after).toBe(1);
      expect(s.gain).toBeCloseTo(s.after - s.before);
      expect(s.gain).toBeGreaterThan(0);
    }
    expect(seeds.per_seed[0].gain).toBeCloseTo(report.held_out_gain);
    expect(seeds.verdict).toMatchObject({
      status: 'held',
      seeds: 3,
      metric: expect.stringContaining('paired by split seed'),
    });
    expect(seeds.verdict.ci[0]).toBeGreaterThan(0);
    expect(seeds.after.mean).toBe(1);
    expect(run.stdout).toMatch(/the evolved skill raises held-out accuracy: held — effect \+0\.\d+ \[/);
  });

  test('should gate out the lessons of an analyst that only copies a verdict: the re-run judge is still wrong', async () => {
    const { skill, input, models, out } = setup(PAIRS);
    script({ copying: true });
    const run = await runCli([
      'skill',
      'evolve-judge',
      '--skill',
      skill,
      '--input',
      input,
      '--models',
      models,
      '--model',
      'judge',
      '--analyst',
      'analyst',
      '--split-seeds',
      '1',
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    // One split seed gives a number, never a verdict.
    expect(report.split_seeds.per_seed).toHaveLength(1);
    expect(report.split_seeds.verdict).toMatchObject({ status: 'too_small', seeds: 1 });
    expect(run.stdout).toContain('too small — 1 seed(s); a verdict needs at least 3');
    const failed = report.trajectories.failed as number;
    expect(failed).toBeGreaterThan(0);
    expect(report.evolve.lessons).toMatchObject({ runs_gate_passed: 0, runs_gate_failed: failed });
    expect(report.evolve.lessons.gated_out).toBe(2 * failed);
    expect(report.cost.judge_gate).toMatchObject({ judgments: failed });
    const analyses = readJsonl(join(out, 'analyses.jsonl')).filter((a) => a.pass === false);
    expect(analyses.map((a) => a.gate)).toEqual(Array(failed).fill('failed'));
  });

  test("should let each failed run's analyst call the judge's resource tools on its pair, within its caps", async () => {
    const { skill, input, models, out } = setup(PAIRS);
    script({ acting: true });
    const run = await runCli([
      'skill',
      'evolve-judge',
      '--skill',
      skill,
      '--input',
      input,
      '--models',
      models,
      '--model',
      'judge',
      '--analyst',
      'analyst',
      '--split-seeds',
      '1',
      '--analyst-tool-calls',
      '2',
      '--analyst-tool-chars',
      '300',
      '--out',
      out,
    ]);
    expect(run.code).toBe(0);
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8'));
    const failed = report.trajectories.failed as number;
    expect(failed).toBeGreaterThan(0);
    expect(report.evolve.trajectories).toMatchObject({
      analyst_tool_calls: 2 * failed,
      analyst_tool_calls_refused: failed,
    });
    // The lessons found by acting still pass the gate: the re-run judge gets the pairs right.
    expect(report.evolve.lessons.runs_gate_passed).toBe(failed);
    for (const a of readJsonl(join(out, 'analyses.jsonl')).filter((r) => r.pass === false))
      expect(a).toMatchObject({ tool_calls: 2, tool_calls_refused: 1, gate: 'passed' });

    const analyst = server.requests.filter((r) => textOf(r).includes('You analyse one run'));
    const offered = analyst.filter((r) => Array.isArray(r.body.tools));
    expect(offered).toHaveLength(failed);
    for (const r of offered)
      expect((r.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name)).toEqual([
        'list_resources',
        'view_resource',
        'run_resource',
      ]);
    const answered = analyst.filter((r) => textOf(r).includes('The tool budget is spent'));
    expect(answered).toHaveLength(failed);
    for (const r of answered) {
      expect(r.body.tools).toBeUndefined();
      const results = (r.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => String(m.content));
      expect(results).toHaveLength(3);
      const [viewed, listed, refused] = results as [string, string, string];
      expect(viewed).toContain('# RAG grounding');
      expect(viewed).toContain("characters cut at the analyst's cap");
      expect(viewed.length).toBeLessThan(400);
      expect(listed).toContain('"id": "json-format"');
      expect(refused).toContain('cap_exceeded');
      // What the analyst's tools show is the judge's view of the pair: never its label.
      for (const text of results) expect(text).not.toMatch(/chosen|rejected|\bbetter\b/i);
    }
  });

  test('should refuse fewer than 2 pairs per split before calling a model', async () => {
    const { skill, input, models, out } = setup(PAIRS.slice(0, 3));
    const run = await runCli([
      'skill',
      'evolve-judge',
      '--skill',
      skill,
      '--input',
      input,
      '--models',
      models,
      '--model',
      'judge',
      '--out',
      out,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('3 labelled pairs split 1 held-in / 2 held-out');
    expect(run.stderr).toContain('each split needs at least 2 pairs');
    expect(server.requests).toHaveLength(0);
  });
});
