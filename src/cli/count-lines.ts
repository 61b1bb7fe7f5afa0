import { createReadStream } from 'node:fs';

const NEWLINE = 0x0a;
/** Bytes a read takes: the default 64 KiB costs several times the CPU of a 1 MiB read. */
const READ_BYTES = 1 << 20;

const isBlank = (byte: number | undefined) => byte === 0x20 || byte === 0x0d || byte === 0x09;

/**
 * Counts non-empty lines of a file quickly, for a progress bar's total (and `--workers auto`).
 * Newlines are found by `indexOf`; a line is read only until its first byte that is not blank,
 * which for JSONL is its first: the count costs a few reads, not a loop over every byte.
 */
export async function countLines(path: string): Promise<number> {
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
