import type { SkillResource } from '../skills/index.js';

interface SkillSummary {
  readonly name: string;
  readonly description: string;
  readonly body_lines: number;
  readonly references: readonly { readonly path: string; readonly lines: number }[];
  readonly resources: readonly SkillResource[];
}

const COLUMNS = ['id', 'type', 'implementation', 'binds_to', 'impact', 'visibility', 'cost'] as const;

/** `rewardkit skill show`'s text: the skill's head, its references and a table of its resources. */
export function formatSkillText(skill: SkillSummary): string {
  const out = [
    `name: ${skill.name}`,
    `description: ${skill.description}`,
    `SKILL.md body: ${skill.body_lines} lines`,
  ];
  out.push('', `references (${skill.references.length}):`);
  for (const r of skill.references) out.push(`  ${r.path.padEnd(40)} ${String(r.lines).padStart(4)} lines`);
  out.push('', `resources (${skill.resources.length}):`);
  if (skill.resources.length > 0) {
    const rows = skill.resources.map((r) => [
      r.id,
      r.type,
      r.implementation,
      r.binding ?? r.sample_field ?? r.path ?? '-',
      r.decision_impact,
      r.visibility,
      r.cost,
    ]);
    const widths = COLUMNS.map((c, i) => Math.max(c.length, ...rows.map((row) => (row[i] as string).length)));
    const line = (cells: readonly string[]) =>
      `  ${cells.map((c, i) => c.padEnd(widths[i] as number)).join('  ')}`.trimEnd();
    out.push(line(COLUMNS), ...rows.map(line));
  }
  return `${out.join('\n')}\n`;
}
