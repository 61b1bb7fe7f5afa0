import type { EvolvedSkill } from './evolve-skill.js';

/** The changelog of an evolution as markdown: the merged changelog, each merged edit with its prevalence, the fix rounds. */
export function renderChangelog(evolved: EvolvedSkill): string {
  const { report, merged } = evolved;
  const seed = report.seeds.find((s) => s.seed === report.selected_seed);
  const lines = [
    '# Trace2Skill changelog',
    '',
    `Mode ${report.mode}; ${report.trajectories.given} trajectories (${report.trajectories.failed} failed); ` +
      `${report.lessons.kept} lessons kept, ${report.lessons.gated_out} gated out; ` +
      (report.selected_seed === undefined
        ? 'no seed gave a valid skill.'
        : `seed ${report.selected_seed} selected by ${report.selection}.`),
    '',
  ];
  if (merged === undefined)
    return [...lines, 'No patch: no lesson survived to the proposal stage.', ''].join('\n');
  lines.push(
    '## Changes',
    '',
    merged.changelog.trim() === '' ? '(no changelog given)' : merged.changelog.trim(),
    '',
  );
  lines.push('## Edits by prevalence', '');
  const edits = [...merged.edits].sort((a, b) => b.support.length - a.support.length);
  for (const { edit, support } of edits) {
    const anchor = edit.target_section ?? edit.after_section ?? edit.target_text;
    lines.push(
      `- \`${edit.op}\` ${edit.file}${anchor ? ` at "${anchor.split('\n')[0]}"` : ''} — ${support.length} trajector${support.length === 1 ? 'y' : 'ies'} (${support.join(', ')})`,
    );
  }
  if (seed !== undefined) {
    lines.push(
      '',
      `Applied ${seed.edits.applied}; dropped at translation ${seed.edits.dropped_at_translation}, by pairing ${seed.edits.dropped_by_pairing}; skipped ${seed.edits.skipped}; fix rounds ${seed.fix_rounds}.`,
    );
  }
  for (const [i, fix] of evolved.fixPatches.entries())
    lines.push('', `## Fix round ${i + 1}`, '', fix.changelog);
  return `${lines.join('\n')}\n`;
}
