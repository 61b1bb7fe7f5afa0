import { createReadStream } from 'node:fs';
import type { Readable } from 'node:stream';

/** One physical line of a JSONL file: its 1-based number and text, or why it could not be decoded. */
export type JsonlLine =
  | { readonly line: number; readonly text: string; readonly error?: undefined }
  | { readonly line: number; readonly text?: undefined; readonly error: string };

const NEWLINE = 0x0a;
/** Bytes a read takes: a 64 KiB read (the default) cost `score` ten times the CPU of a 1 MiB one. */
const READ_BYTES = 1 << 20;

const isBlank = (byte: number | undefined) => byte === 0x20 || byte === 0x0d || byte === 0x09;

/**
 * Streams the lines of a JSONL file or stream in constant memory. Each line is decoded as strict
 * UTF-8 on its own, so one bad byte fails one row with its line number instead of being replaced
 * by U+FFFD (which would score corrupted text) or failing the whole file. Blank lines are skipped.
 */
export async function* readJsonlLines(source: string | Readable): AsyncGenerator<JsonlLine> {
  const stream =
    typeof source === 'string' ? createReadStream(source, { highWaterMark: READ_BYTES }) : source;
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let pending: Buffer[] = [];
  let lineNumber = 0;
  const emit = (bytes: Buffer): JsonlLine | undefined => {
    lineNumber++;
    const body = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.subarray(0, -1) : bytes;
    try {
      const text = decoder.decode(body);
      return text.trim() === '' ? undefined : { line: lineNumber, text };
    } catch {
      return {
        line: lineNumber,
        error: `not valid UTF-8 (at byte ${firstInvalidUtf8Byte(body)} of the line)`,
      };
    }
  };
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Buffer);
    let start = 0;
    for (let i = buffer.indexOf(NEWLINE); i !== -1; i = buffer.indexOf(NEWLINE, start)) {
      pending.push(buffer.subarray(start, i));
      const out = emit(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending));
      pending = [];
      if (out) yield out;
      start = i + 1;
    }
    if (start < buffer.length) pending.push(buffer.subarray(start));
  }
  if (pending.length > 0) {
    const out = emit(Buffer.concat(pending));
    if (out) yield out;
  }
}

/**
 * Counts the non-empty lines of a JSONL file quickly, for a progress bar's total (and `score
 * --workers auto`). Newlines are found by `indexOf`; a line is read only until its first byte
 * that is not blank, which for JSONL is its first: the count costs a few reads, not a loop over
 * every byte. A line of only spaces, tabs and carriage returns is blank.
 */
export async function countJsonlLines(path: string): Promise<number> {
  let count = 0;
  let lineHasContent = false;
  for await (const chunk of createReadStream(path, { highWaterMark: READ_BYTES })) {
    const buffer = chunk as Buffer;
    let start = 0;
    for (;;) {
      const end = buffer.indexOf(NEWLINE, start);
      const stop = end === -1 ? buffer.length : end;
      for (let i = start; !lineHasContent && i < stop; i++) lineHasContent = !isBlank(buffer[i]);
      if (end === -1) break;
      if (lineHasContent) count++;
      lineHasContent = false;
      start = end + 1;
    }
  }
  return lineHasContent ? count + 1 : count;
}

/** The offset of the first byte that breaks UTF-8, for error messages a user can act on. */
function firstInvalidUtf8Byte(bytes: Buffer): number {
  let lo = 0;
  let hi = bytes.length;
  // Binary search on the longest prefix that decodes in streaming mode (a multi-byte sequence
  // cut at the end is not an error there), which is where the bad byte sits.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, mid), { stream: true });
      lo = mid;
    } catch {
      hi = mid - 1;
    }
  }
  // A sequence cut short by the bad byte is reported at its lead byte, where the damage starts.
  let lead = lo - 1;
  while (lead >= 0 && lo - lead < 4 && ((bytes[lead] as number) & 0xc0) === 0x80) lead--;
  const first = bytes[lead];
  if (first !== undefined && first >= 0xc0) {
    const length = first >= 0xf0 ? 4 : first >= 0xe0 ? 3 : 2;
    if (lo - lead < length) return lead;
  }
  return lo;
}
