import { readFileSync } from 'node:fs';
import type { Command } from 'commander';
import { RewardKitError } from '../../core/index.js';
import type { CommandState } from '../command-state.js';
import { EXIT } from '../exit-codes.js';
import { registerSkillEvolveCommand } from './skill-evolve-command.js';
import { registerSkillEvolveJudgeCommand } from './skill-evolve-judge-command.js';

const PACKAGE_FORMAT = `
A skill package is a directory: SKILL.md (YAML front matter with name and description, then at most
499 lines of instructions), references/*.md (each under 300 lines, linked from SKILL.md, linking no
further), and for Skill-RM a resources.yaml describing each resource. See docs/skills.md.`;

export function registerSkillCommand(skill: Command, state: CommandState): void {
  skill
    .command('validate')
    .description('Check a skill package against every rule; print one line per violation.')
    .argument('<dir>', 'the skill package directory (the folder that holds SKILL.md)')
    .addHelpText(
      'after',
      `${PACKAGE_FORMAT}

Every violation is printed on stdout as "<dir>/<file>:<line>: <message>" (front matter problems
on their key's line, links on the link's line, resources on the offending field's line), then a
count on stderr; the exit code is 1 when there is any, 0 when the package is valid.

Examples:
  rewardkit skill validate skills/reward-judge
  rewardkit skill validate my-skill/ || echo "fix the lines above"`,
    )
    .action(async (dir: string) => {
      const { formatViolation, loadSkill } = await import('../../skills/index.js');
      const result = loadSkill(dir);
      if (!result.ok) {
        for (const violation of result.violations)
          process.stdout.write(`${formatViolation(violation, dir)}\n`);
        const n = result.violations.length;
        process.stderr.write(`${n} violation${n === 1 ? '' : 's'} in ${dir}\n`);
        state.exitCode = EXIT.error;
        return;
      }
      const { skill } = result;
      process.stdout.write(
        `${dir}: skill "${skill.name}" is valid (${skill.bodyLines} body lines, ${skill.references.length} references, ${skill.resources.length} resources)\n`,
      );
    });
  skill
    .command('show')
    .description('Print a skill package: name, description, references with line counts, resources.')
    .argument('<dir>', 'the skill package directory')
    .option('--json', 'print one JSON object instead of text')
    .addHelpText(
      'after',
      `
The package is validated first: an invalid one prints its violations as "skill validate" does
and exits 1 (nothing is shown half-loaded). --json prints {spec, name, description, front_matter,
body_lines, references: [{path, lines}], resources: [...]} with every resources.yaml field.

Examples:
  rewardkit skill show skills/reward-judge
  rewardkit skill show skills/reward-judge --json | jq '.resources[] | select(.visibility == "oracle_only")'`,
    )
    .action(async (dir: string, flags: { json?: boolean }) => {
      const { formatViolation, loadSkill } = await import('../../skills/index.js');
      const result = loadSkill(dir);
      if (!result.ok) {
        for (const violation of result.violations)
          process.stdout.write(`${formatViolation(violation, dir)}\n`);
        state.exitCode = EXIT.error;
        return;
      }
      const { skill } = result;
      const summary = {
        spec: skill.spec,
        name: skill.name,
        description: skill.description,
        front_matter: skill.frontMatter,
        body_lines: skill.bodyLines,
        references: skill.references.map((r) => ({ path: r.path, lines: r.lines })),
        resources: skill.resources,
      };
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
        return;
      }
      const { formatSkillText } = await import('../format-skill.js');
      process.stdout.write(formatSkillText(summary));
    });
  skill
    .command('apply')
    .description(
      'Apply a Trace2Skill patch to a copy of a skill and write the edited skill to a new directory.',
    )
    .requiredOption('--skill <dir>', 'the skill package to start from (never written to)')
    .requiredOption('--patch <file>', 'the patch: {"reasoning", "edits": [...], "changelog"} as JSON')
    .requiredOption('--out <dir>', 'where the edited skill goes: a new or empty directory outside --skill')
    .option(
      '--protect <path>',
      'a file, or a folder ending in "/", no edit may touch (repeatable)',
      collect,
      [],
    )
    .addHelpText(
      'after',
      `
No LLM is involved. Edits linking a file that neither exists nor is created by the patch, and new
references/*.md files that no SKILL.md edit links, are dropped; an edit whose anchor is missing or
not unique, whose file is protected or missing, or that lacks a field its op needs, is skipped and
its file left as it was. The edited skill is then validated: it is written only when valid.
Prints {"out", "written", "applied", "dropped", "skipped", "violations"} as JSON; exits 1 when
the patch is malformed or the edited skill is invalid (nothing is written then).

Example:
  rewardkit skill apply --skill skills/reward-judge --patch patch.json --out evolved/reward-judge \\
    --protect resources.yaml`,
    )
    .action(async (flags: { skill: string; patch: string; out: string; protect: string[] }) => {
      const { parseSkillPatch, patchSkill, readSkillFiles, writeSkillFiles } = await import(
        '../../skills/index.js'
      );
      const files = readSkillFiles(flags.skill);
      const parsed = parseSkillPatch(readText(flags.patch));
      if (!parsed.ok)
        throw new RewardKitError('RK_INPUT_PARSE', `Patch ${flags.patch} dropped: ${parsed.reason}`);
      const report = patchSkill(files, parsed.patch, { protect: flags.protect });
      const written = report.result.ok;
      if (written) writeSkillFiles(flags.skill, report.files, flags.out);
      const summary = {
        out: flags.out,
        written,
        applied: report.applied,
        dropped: report.dropped.map((d) => ({
          index: d.index,
          op: d.edit.op,
          file: d.edit.file,
          reason: d.reason,
        })),
        skipped: report.skipped.map((s) => ({
          index: s.index,
          op: s.edit.op,
          file: s.edit.file,
          cause: s.cause,
          reason: s.reason,
        })),
        violations: report.result.ok ? [] : report.result.violations,
      };
      process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
      if (!written) state.exitCode = EXIT.error;
    });
  registerSkillEvolveCommand(skill, state);
  registerSkillEvolveJudgeCommand(skill, state);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new RewardKitError('RK_USAGE', `Cannot read ${path}: ${(error as Error).message}`, {
      cause: error,
    });
  }
}
