import type {
  CreditCriterion,
  MedicalRubric,
  PitfallCriterion,
  RubricSection,
} from '../medical/medical-rubric.js';
import { encodeMarkdownValue } from './markdown-value.js';
import type { ReviewStatus } from './review-status.js';
import type { AuthoringNotes } from './rubric-record.js';

/** The first line of every review file: what it is and how to edit it. */
export const REVIEW_FILE_HEADER =
  '<!-- rewardkit rubric review file, format 1. Edit the text after the colons and the ### titles; add or delete ### criteria; keep the ## headings and the field names. Set status to approved or rejected. -->';

/** The section headings, in file order. */
export const SECTION_HEADINGS: Readonly<Record<RubricSection, string>> = {
  essential: 'Essential',
  important: 'Important',
  highlight: 'Highlight',
  pitfall: 'Pitfall',
};

/** The three graded descriptions of each kind of criterion, in file order. */
export const CREDIT_LEVELS = ['not_met', 'partially_met', 'fully_met'] as const;
export const PITFALL_LEVELS = ['no_pitfall', 'minor_error', 'major_error'] as const;

/** A fence longer than any run of backticks in the text, so the query cannot close it. */
function fenceFor(text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  return '`'.repeat(Math.max(3, longest + 1));
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

function notesLines(
  notes: Pick<AuthoringNotes, 'agreement' | 'threshold' | 'needs_review' | 'review_reasons'> &
    Partial<Pick<AuthoringNotes, 'checklist' | 'answers' | 'evidence' | 'min_support'>>,
): string[] {
  const lines = [
    '_Read-only: this section is ignored on import._',
    '',
    `- agreement: ${notes.agreement === null ? 'not measurable' : notes.agreement.toFixed(3)} (threshold ${notes.threshold})`,
    `- needs review: ${notes.needs_review ? 'yes' : 'no'}`,
    ...notes.review_reasons.map((r) => `  - ${r.code}: ${oneLine(r.message)}`),
  ];
  if (notes.answers?.length) {
    lines.push(`- answers: ${notes.answers.map((a) => `${a.model} (${a.status})`).join(', ')}`);
  }
  if (notes.checklist?.length) {
    lines.push('- key points (support = share of answers stating it):');
    for (const item of notes.checklist) {
      const facts = [
        `support ${item.support.toFixed(2)}`,
        `correct: ${item.correct}`,
        ...(item.contradicted_by.length ? [`contradicted by ${item.contradicted_by.join(', ')}`] : []),
        ...(item.reference ? [`reference: ${item.reference}`] : []),
        ...(item.evidence
          ? [`evidence: ${item.evidence}${item.cites?.length ? ` (${item.cites.join(', ')})` : ''}`]
          : []),
        ...(item.kept === false ? ['left out by consensus'] : []),
      ];
      lines.push(`  - ${item.id} (${facts.join('; ')}): ${oneLine(item.text)}`);
    }
  }
  if (notes.min_support !== undefined) lines.push(`- min support: ${notes.min_support}`);
  if (notes.evidence) {
    lines.push(`- evidence (${notes.evidence.retriever}, ${notes.evidence.passages.length} passage(s)):`);
    for (const p of notes.evidence.passages) {
      lines.push(
        `  - ${p.ref}${p.id === undefined ? '' : ` [${oneLine(p.id)}]`} (score ${p.score.toFixed(3)}): ${oneLine(p.text)}`,
      );
    }
  }
  return lines;
}

function criterionLines(criterion: CreditCriterion | PitfallCriterion, levels: readonly string[]): string[] {
  const graded = criterion.levels as Record<string, string>;
  return [
    `### ${encodeMarkdownValue(criterion.title)}`,
    '',
    `- weight: ${criterion.weight}`,
    ...(criterion.capability ? [`- capability: ${criterion.capability}`] : []),
    ...levels.map((level) => `- ${level}: ${encodeMarkdownValue(graded[level] ?? '')}`),
    '',
  ];
}

/**
 * One rubric as a markdown file a clinician can read and edit: the status field, the query, the
 * tags, the authoring notes (read-only), then the four sections with each criterion's title,
 * weight and three graded descriptions. `parseRubricMarkdown` reads it back exactly.
 */
export function renderRubricMarkdown(
  rubric: MedicalRubric,
  options: { status?: ReviewStatus; notes?: Parameters<typeof notesLines>[0] } = {},
): string {
  const fence = fenceFor(rubric.query);
  const { difficulty, perspective, capability } = rubric.tags;
  const lines = [
    REVIEW_FILE_HEADER,
    '',
    `# Rubric ${oneLine(rubric.id)}`,
    '',
    `- id: ${encodeMarkdownValue(rubric.id)}`,
    `- status: ${options.status ?? 'pending'}`,
    '',
    '## Query',
    '',
    `${fence}text`,
    rubric.query,
    fence,
    '',
    '## Tags',
    '',
    ...(difficulty ? [`- difficulty: ${difficulty}`] : []),
    ...(perspective ? [`- perspective: ${perspective}`] : []),
    ...(capability ? [`- capability: ${capability.join(', ')}`] : []),
    ...(difficulty || perspective || capability ? [''] : ['_(none)_', '']),
  ];
  if (options.notes) lines.push('## Authoring notes', '', ...notesLines(options.notes), '');
  for (const section of ['essential', 'important', 'highlight', 'pitfall'] as const) {
    lines.push(`## ${SECTION_HEADINGS[section]}`, '');
    const criteria = rubric[section];
    if (criteria.length === 0) lines.push('_(none)_', '');
    const levels = section === 'pitfall' ? PITFALL_LEVELS : CREDIT_LEVELS;
    for (const criterion of criteria) lines.push(...criterionLines(criterion, levels));
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
