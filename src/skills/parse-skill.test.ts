import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { loadSkill } from './load-skill.js';
import { parseSkill } from './parse-skill.js';
import type { SkillViolation } from './skill-violation.js';

const shipped = fileURLToPath(new URL('../../skills/reward-judge', import.meta.url));

const resource = (fields: string) => `  - id: doc
    type: principle
    implementation: reference_doc
    path: references/guide.md
    applies_to: [all]
    cost: low
    hard_or_soft: soft
    decision_impact: evidence
    inputs_required: [prompt]
    outputs_produced: [guidance]
    visibility: sample_visible
${fields}`;

const goodFiles = () =>
  new Map([
    [
      'SKILL.md',
      '---\nname: tiny-judge\ndescription: Judges tiny things.\n---\n\n# Tiny\n\nSee [the guide](references/guide.md).\n',
    ],
    ['references/guide.md', '# Guide\n\nCompare answers.\n'],
    ['resources.yaml', `resources:\n${resource('')}`],
  ]);

const where = (violations: readonly SkillViolation[]) => violations.map((v) => [v.code, v.file, v.line]);

describe('parseSkill', () => {
  test('should load a valid package whole', () => {
    const result = parseSkill(goodFiles());
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.skill).toMatchObject({
      spec: 'rk-skill/v1',
      name: 'tiny-judge',
      description: 'Judges tiny things.',
      bodyLines: 4,
      references: [{ path: 'references/guide.md', lines: 3 }],
      resources: [{ id: 'doc', path: 'references/guide.md', visibility: 'sample_visible' }],
    });
  });

  test('should accept a package without resources.yaml', () => {
    const files = goodFiles();
    files.delete('resources.yaml');
    expect(parseSkill(files)).toMatchObject({ ok: true, skill: { resources: [] } });
  });

  test('should report every violation of a broken package with its file and line', () => {
    const longBody = Array.from({ length: 869 }, (_, i) => `line ${i}`).join('\n');
    const files = new Map([
      [
        'SKILL.md',
        [
          '---', // 1
          'name: Bad_Name', // 2
          'description: Use <b>this</b> skill', // 3
          'allowed_tools: Read', // 4
          '---', // 5
          '# Broken', // 6
          'See [missing](references/missing.md).', // 7
          'See [deep](references/deep.md) and [outside](../secret.md).', // 8
          '```md', // 9
          '[inside a fence](references/nowhere.md)', // 10
          '```', // 11
          longBody, // 12 …
        ].join('\n'),
      ],
      ['references/deep.md', '# Deep\n\nMore in [further](further.md).\n'],
      ['references/further.md', '# Further\n'],
      ['references/orphan.md', '# Orphan\n'],
      ['references/long.md', `${Array.from({ length: 300 }, () => 'x').join('\n')}\n`],
      [
        'resources.yaml',
        [
          'resources:', // 1
          '  - id: doc', // 2
          '    type: principle', // 3
          '    implementation: reference_doc', // 4
          '    path: ../../etc/passwd', // 5
          '    applies_to: [all]', // 6
          '    cost: low', // 7
          '    hard_or_soft: soft', // 8
          '    decision_impact: evidence', // 9
          '    inputs_required: [prompt]', // 10
          '    outputs_produced: [guidance]', // 11
          '    visibility: sample_visible', // 12
          '  - id: doc', // 13
          '    type: verifier', // 14
          '    implementation: verifier', // 15
          '    binding: mathh', // 16
          '    applies_to: [math]', // 17
          '    cost: cheap', // 18
          '    hard_or_soft: hard', // 19
          '    decision_impact: strong', // 20
          '    inputs_required: [response]', // 21
          '    outputs_produced: [correct]', // 22
          '    visibility: public', // 23
          '  - id: judge', // 24
          '    type: external_pipeline', // 25
          '    implementation: llm_pipeline', // 26
          '    binding: math', // 27
          '    path: /abs/path.md', // 28
          '    applies_to: [all]', // 29
          '    cost: high', // 30
          '    hard_or_soft: soft', // 31
          '    decision_impact: evidence', // 32
          '    inputs_required: [prompt]', // 33
          '    outputs_produced: [verdict]', // 34
          '    visibility: sample_visible', // 35
        ].join('\n'),
      ],
    ]);
    const result = parseSkill(files);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(where(result.violations)).toEqual([
      ['name', 'SKILL.md', 2],
      ['description', 'SKILL.md', 3],
      ['front_matter', 'SKILL.md', 4],
      ['link_unresolved', 'SKILL.md', 7],
      ['link_outside_package', 'SKILL.md', 8],
      ['body_too_long', 'SKILL.md', 505],
      ['link_too_deep', 'references/deep.md', 3],
      // Reached only through deep.md, so not at all.
      ['reference_unlinked', 'references/further.md', 1],
      ['reference_unlinked', 'references/long.md', 1],
      ['reference_too_long', 'references/long.md', 300],
      ['reference_unlinked', 'references/orphan.md', 1],
      ['resource_path', 'resources.yaml', 5],
      ['duplicate_resource_id', 'resources.yaml', 13],
      ['resource_field', 'resources.yaml', 16],
      ['resource_field', 'resources.yaml', 18],
      ['resource_field', 'resources.yaml', 23],
      ['resource_field', 'resources.yaml', 27],
      ['resource_path', 'resources.yaml', 28],
    ]);
    const messages = result.violations.map((v) => v.message);
    expect(messages).toContain('body has 875 lines; keep it under 500 and move details to references/');
    expect(messages).toContain(
      'front matter "allowed_tools" unknown key; the keys are name, description, license, allowed-tools, metadata, compatibility',
    );
    expect(messages).toContain(
      'resources[1].binding: "mathh" is not one of math, reference, ifeval, code, regex, json, tags, length, genrm, openrs',
    );
    expect(messages).toContain('resources[1].cost: "cheap" is not one of low, medium, high');
    expect(messages).toContain('duplicate resource id "doc" (first at line 2)');
  });

  test('should report a SKILL.md without front matter, and a package without SKILL.md', () => {
    expect(parseSkill(new Map([['SKILL.md', '# No front matter\n']]))).toMatchObject({
      ok: false,
      violations: [{ code: 'front_matter', file: 'SKILL.md', line: 1 }],
    });
    expect(parseSkill(new Map())).toMatchObject({
      ok: false,
      violations: [{ code: 'missing_file', file: 'SKILL.md', line: 1 }],
    });
  });

  test('should report a name over 64 characters, a description over 1,024 and a missing description', () => {
    const skill = (front: string) => new Map([['SKILL.md', `---\n${front}\n---\nbody\n`]]);
    const long = parseSkill(skill(`name: ${'a'.repeat(65)}\ndescription: ${'d'.repeat(1025)}`));
    expect(long.ok || where(long.violations)).toEqual([
      ['name', 'SKILL.md', 2],
      ['description', 'SKILL.md', 3],
    ]);
    const missing = parseSkill(skill('name: ok-name'));
    expect(missing.ok || where(missing.violations)).toEqual([['description', 'SKILL.md', 2]]);
  });

  test('should report YAML syntax errors on their line in SKILL.md and resources.yaml', () => {
    const files = goodFiles();
    files.set('SKILL.md', '---\nname: ok\ndescription: [unclosed\n---\n[guide](references/guide.md)\n');
    files.set('resources.yaml', 'resources:\n  - id: a\n   type: x\n');
    const result = parseSkill(files);
    expect(result.ok || result.violations.map((v) => [v.code, v.file])).toEqual([
      ['invalid_yaml', 'SKILL.md'],
      ['invalid_yaml', 'resources.yaml'],
    ]);
  });

  test('should tie binding and sample_field to the implementation', () => {
    const files = goodFiles();
    files.set(
      'resources.yaml',
      `resources:\n${resource('    binding: math\n    sample_field: reference\n')}` +
        '  - {id: v, type: verifier, implementation: verifier, applies_to: [math], cost: low, hard_or_soft: hard,\n' +
        '     decision_impact: strong, inputs_required: [response], outputs_produced: [correct], visibility: benchmark_visible}\n' +
        '  - {id: s, type: reference, implementation: runtime_sample, applies_to: [all], cost: low, hard_or_soft: hard,\n' +
        '     decision_impact: strong, inputs_required: [reference], outputs_produced: [text], visibility: oracle_only}\n',
    );
    const result = parseSkill(files);
    expect(result.ok || result.violations.map((v) => [v.line, v.message])).toEqual([
      [13, 'resources[0] "doc": "binding" is only for verifier and llm_pipeline, not reference_doc'],
      [14, 'resources[0] "doc": "sample_field" is only for runtime_sample, not reference_doc'],
      [
        15,
        'resources[1] "v": a verifier needs a "binding": one of math, reference, ifeval, code, regex, json, tags, length',
      ],
      [17, 'resources[2] "s": a runtime_sample needs a "sample_field" (metadata, reference or checklist)'],
    ]);
  });
});

describe('the shipped reward-judge skill', () => {
  test('should pass the validator', () => {
    const result = loadSkill(shipped);
    expect(result.ok ? [] : result.violations).toEqual([]);
  });

  test('should bind the verifiers and judges of the notes, with ground truth benchmark-visible', () => {
    const result = loadSkill(shipped);
    if (!result.ok) throw new Error('the shipped skill is invalid');
    const { skill } = result;
    expect(skill.name).toBe('reward-judge');
    expect(skill.bodyLines).toBeLessThan(150);
    expect(skill.references.map((r) => r.path)).toEqual([
      'references/code.md',
      'references/instruction-following.md',
      'references/math-answers.md',
      'references/rag-grounding.md',
      'references/writing.md',
    ]);
    const bindings = skill.resources.flatMap((r) => (r.binding === undefined ? [] : [r.binding]));
    expect(bindings).toEqual(
      expect.arrayContaining(['math', 'reference', 'ifeval', 'code', 'json', 'genrm', 'openrs']),
    );
    const reference = skill.resources.find((r) => r.sample_field === 'reference');
    expect(reference?.visibility).toBe('benchmark_visible');
    expect(skill.body).toMatch(
      /Hard evidence[\s\S]*external pipeline[\s\S]*Rubrics and principles[\s\S]*own judgment[\s\S]*Tie/,
    );
  });
});
