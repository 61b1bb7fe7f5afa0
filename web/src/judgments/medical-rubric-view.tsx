import { num } from '../format';
import { TableHead } from '../table-head';
import { GradeBadge, type Tone } from './grade-badge';
import {
  isMedicalRubricDetail,
  type MedicalCriterionGrade,
  type MedicalRubricDetail,
} from './medical-rubric-detail';
import { NoteList } from './note-list';

const GRADES: Record<MedicalCriterionGrade['grade'], [Tone, string]> = {
  fully_met: ['good', 'met'],
  partially_met: ['partial', 'partially met'],
  not_met: ['bad', 'not met'],
  no_pitfall: ['good', 'no pitfall'],
  minor_error: ['partial', 'pitfall hit: minor'],
  major_error: ['bad', 'pitfall hit: major'],
};

/** What each scoring rule did, in words (src/judges/medical: `MedicalScoringRule`). */
const RULES: Record<string, string> = {
  truncation_essential: 'truncation: Essential credit under its ratio, so Important and Highlight count 0',
  truncation_pitfall: 'truncation: pitfall deduction over its ratio, so Important and Highlight count 0',
  saturation_criterion_cap: 'saturation: an Important/Highlight grade capped per criterion',
  saturation_essential_cap:
    'saturation: Important + Highlight credit capped at a multiple of Essential credit',
};

function SectionTable({ b }: { b: MedicalRubricDetail['breakdown'] }) {
  const rows: [string, string, number][] = [
    ['Essential', num(b.essential.credit), b.essential.max],
    ['Important', num(b.important.credit), b.important.max],
    ['Highlight', num(b.highlight.credit), b.highlight.max],
    ['Pitfall', b.pitfall.deduction === 0 ? '0' : `−${num(b.pitfall.deduction)}`, b.pitfall.max],
  ];
  return (
    <table className="grid" data-sections>
      <TableHead columns={['section', 'credit', 'max']} />
      <tbody>
        {rows.map(([section, credit, max]) => (
          <tr key={section}>
            <td>{section}</td>
            <td className="n">{credit}</td>
            <td className="n">{num(max)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function CriterionRow({ g }: { g: MedicalCriterionGrade }) {
  const [tone, label] = GRADES[g.grade];
  return (
    <tr data-criterion={g.id}>
      <td>{g.id}</td>
      <td>{g.section}</td>
      <td>
        {g.title}
        {g.weight !== undefined && g.weight !== 1 && <span className="muted"> ×{num(g.weight)}</span>}
      </td>
      <td>
        <GradeBadge tone={tone} value={g.grade} label={label} />
      </td>
      <td className="quote">{g.evidence ? g.evidence : <span className="muted">—</span>}</td>
      <td>{g.reason}</td>
    </tr>
  );
}

function MedicalRubricView({ d }: { d: MedicalRubricDetail }) {
  const b = d.breakdown;
  return (
    <div className="judgment" data-judgment="medical_rubric">
      <p>
        score <b>{num(d.score)}</b>
        {b.raw !== undefined && ` · raw ${num(b.raw)} in [${num(b.min)}, ${num(b.max)}]`}
        {b.extraCredit !== undefined && ` · extra credit counted ${num(b.extraCredit)}`}
        {b.essentialCap !== undefined && b.essentialCap !== null && ` (cap ${num(b.essentialCap)})`}
        {d.rubric_id !== undefined && (
          <span className="muted">
            {' '}
            · rubric {d.rubric_id}
            {d.rubric_from && ` (${d.rubric_from})`}
          </span>
        )}
      </p>
      <SectionTable b={b} />
      {b.rules.length === 0 ? (
        <p className="muted">No scoring rule fired.</p>
      ) : (
        <NoteList items={b.rules.map((r) => RULES[r] ?? r)} />
      )}
      <table className="grid criteria">
        <TableHead columns={['id', 'section', 'criterion', 'grade', 'evidence', 'reason']} />
        <tbody>
          {d.grades.map((g) => (
            <CriterionRow key={g.id} g={g} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A QuarkMedBench grading: per-section credit, the rules that fired, every criterion's grade. */
export const medicalRubricView = (detail: unknown) =>
  isMedicalRubricDetail(detail) ? <MedicalRubricView d={detail} /> : undefined;
