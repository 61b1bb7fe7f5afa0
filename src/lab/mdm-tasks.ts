import type { Rng } from '../core/index.js';

/** Digits, the operators, the answer delimiter `#` (closes every response), then MASK. */
export const MDM_VOCAB = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '+', '>', '=', '#', '_'] as const;
export const MASK_ID = MDM_VOCAB.indexOf('_');
export const DELIMITER_ID = MDM_VOCAB.indexOf('#');
export const MDM_TASKS = ['addition', 'sorting'] as const;
export type MdmTask = (typeof MDM_TASKS)[number];

/** A prompt → response pair as token ids; every example of a task has the same lengths. */
export interface MdmExample {
  prompt: number[];
  response: number[];
}

const ids = (s: string) => Array.from(s, (c) => MDM_VOCAB.indexOf(c as (typeof MDM_VOCAB)[number]));

/**
 * `digits`-digit addition (`12+34=` → `046#`, the sum zero-padded to digits + 1) or sorting
 * (`3142>` → `1234#`, `digits` + 2 digits sorted ascending).
 */
export function mdmExample(task: MdmTask, digits: number, rng: Rng): MdmExample {
  if (task === 'addition') {
    const top = 10 ** digits;
    const a = Math.floor(rng.next() * top);
    const b = Math.floor(rng.next() * top);
    const pad = (n: number, w: number) => String(n).padStart(w, '0');
    return {
      prompt: ids(`${pad(a, digits)}+${pad(b, digits)}=`),
      response: ids(`${pad(a + b, digits + 1)}#`),
    };
  }
  const xs = Array.from({ length: digits + 2 }, () => Math.floor(rng.next() * 10));
  return { prompt: ids(`${xs.join('')}>`), response: ids(`${[...xs].sort((p, q) => p - q).join('')}#`) };
}
