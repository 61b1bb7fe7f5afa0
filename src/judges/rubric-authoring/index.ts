export { answerQuery, type ModelAnswer } from './answer-query.js';
export { authorRubric, DEFAULT_AGREEMENT_THRESHOLD, type RubricAuthoringOptions } from './author-rubric.js';
export { type AuthoringQuery, AuthoringQuerySchema } from './authoring-query.js';
export { type AnswerKeyPoints, answerAgreement, keyPointSupport } from './checklist-agreement.js';
export { crossVerifyAnswers, type KeyPointVerdict } from './cross-verify-answers.js';
export { type EvidencePassage, EvidencePassageSchema, evidencePassages } from './evidence-passage.js';
export { type ChecklistExtraction, extractChecklist } from './extract-checklist.js';
export { keptByConsensus } from './kept-by-consensus.js';
export { type ReviewIndexEntry, renderReviewIndex } from './review-index.js';
export { type KeyPointCheck, NO_RETRIEVAL_NOTE, type ReviewReason, reviewReasons } from './review-reasons.js';
export { type ReviewStatus, ReviewStatusSchema } from './review-status.js';
export { rubricFileName } from './rubric-file-name.js';
export { lintRubric, type RubricLintOptions, type RubricLintWarning } from './rubric-lint.js';
export { type ParsedRubricMarkdown, parseRubricMarkdown } from './rubric-markdown-parse.js';
export { renderRubricMarkdown } from './rubric-markdown-render.js';
export {
  type AuthoringFailure,
  type AuthoringNotes,
  AuthoringNotesSchema,
  type ChecklistItem,
  type RubricRecord,
  RubricRecordSchema,
} from './rubric-record.js';
export { type RubricDraft, RubricDraftSchema, writeRubric } from './write-rubric.js';
