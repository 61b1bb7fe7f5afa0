export { readJsonArrayLines, readRowLines } from './json-array-lines.js';
export { type JsonlLine, readJsonlLines } from './jsonl-lines.js';
export {
  describeIssues,
  lineKey,
  type ParsedRow,
  parseRow,
  parseSampleRow,
  type RowOrigin,
  rowId,
} from './sample-row.js';
