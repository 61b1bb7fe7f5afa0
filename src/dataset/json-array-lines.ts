import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { RewardKitError } from '../core/index.js';
import { type JsonlLine, readJsonlLines } from './jsonl-lines.js';

/**
 * The elements of a JSON array file as "lines": each element's text with the line it starts on,
 * so a row of a JSON dataset fails with `file:line: field` like a JSONL row does. The file is read
 * whole (published JSON datasets are tens of MB); elements are found by a scan that respects
 * strings, so each is parsed, and fails, on its own.
 */
export async function* readJsonArrayLines(path: string): AsyncGenerator<JsonlLine> {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(path));
  } catch (error) {
    throw new RewardKitError(
      'RK_INPUT_ENCODING',
      `${path}: cannot be read as UTF-8: ${(error as Error).message}`,
    );
  }
  let line = 1;
  let i = 0;
  const skipSpace = () => {
    while (i < text.length && /\s/.test(text[i] as string)) {
      if (text[i] === '\n') line++;
      i++;
    }
  };
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  skipSpace();
  if (text[i] !== '[') {
    throw new RewardKitError('RK_INPUT_PARSE', `${path}:${line}: expected a JSON array of rows ("[" first)`);
  }
  i++;
  for (;;) {
    skipSpace();
    if (i >= text.length) {
      yield { line, error: 'the JSON array is not closed with "]"' };
      return;
    }
    if (text[i] === ']') return;
    const start = i;
    const startLine = line;
    let depth = 0;
    let inString = false;
    for (; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\n') line++;
      if (inString) {
        if (ch === '\\') i++;
        else if (ch === '"') inString = false;
      } else if (ch === '"') inString = true;
      else if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') {
        if (depth === 0) break;
        depth--;
      } else if (ch === ',' && depth === 0) break;
    }
    yield { line: startLine, text: text.slice(start, i).trim() };
    if (text[i] === ',') i++;
  }
}

/** Rows of a dataset file: a JSON array for `.json`, JSONL for anything else (`.jsonl`, `.ndjson`). */
export function readRowLines(path: string): AsyncGenerator<JsonlLine> {
  return extname(path).toLowerCase() === '.json' ? readJsonArrayLines(path) : readJsonlLines(path);
}
