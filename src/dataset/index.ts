export {
  type CheckedRow,
  type CheckedRowsOptions,
  checkedRows,
  checkRecord,
  createRepeatedIdCheck,
  type RecordRow,
} from './checked-rows.js';
export type { DatasetRecord, UnparsedRecord } from './dataset-record.js';
export { type OpenedDataset, openDataset, openUnparsedDataset } from './dataset-records.js';
export {
  type DatasetShard,
  datasetShards,
  type ShardFormat,
  shardFormat,
  splitOf,
} from './dataset-shards.js';
export {
  applyFieldMappings,
  combineFieldMappings,
  type FieldMapping,
  type MappedFields,
  parseFieldMapping,
} from './field-mapping.js';
export { type FieldPath, lookUpField, parseFieldPath } from './field-path.js';
export {
  FORMAT_PRESET_NAMES,
  FORMAT_PRESETS,
  type FormatPresetName,
  formatPresetMappings,
} from './format-presets.js';
export { type InputRow, type InputRowOptions, inputRows } from './input-row.js';
export { readJsonArrayLines, readRowLines } from './json-array-lines.js';
export { jsonRecords, parseRecord } from './json-records.js';
export { countJsonlLines, type JsonlLine, readJsonlLines } from './jsonl-lines.js';
export { parquetRowCount, plainValue, readParquetRecords } from './parquet-records.js';
export {
  checkRow,
  describeIssues,
  firstSeenAt,
  lineKey,
  type ParsedRow,
  parseRow,
  parseSampleRow,
  type RowOrigin,
  rowId,
  rowPlace,
  type SchemaRow,
} from './sample-row.js';
