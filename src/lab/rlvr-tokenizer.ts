/**
 * The character tokenizer of the lab's RL tasks: every character a prompt or an answer line of
 * `rlvr-tasks.ts` can hold, plus three specials — padding (left of short prompts and after the
 * end), the separator between prompt and completion, and the end token that stops sampling.
 */
export const PAD = 0;
export const SEP = 1;
export const EOS = 2;
// The `\boxed{}` answer format's characters come last, so the `#### ` format's ids and vocabulary
// (and with them every seeded initialization) stay what they were before that format existed.
const HASH_CHARS = ' #+-*()0123456789acdeghilnorstw';
const CHARS = `${HASH_CHARS}\\{}bx`;
const SPECIALS = 3;

/** Number of token ids of the `#### ` answer format: the specials, then one per character. */
export const RLVR_VOCAB = SPECIALS + HASH_CHARS.length;

/** Number of token ids a policy writing answers in `format` needs. */
export const rlvrVocab = (format: 'hash' | 'boxed') =>
  format === 'hash' ? RLVR_VOCAB : SPECIALS + CHARS.length;

/** Token ids of `text`; a character outside the tasks' alphabet is a bug in the caller, so it throws. */
export function encodeChars(text: string): number[] {
  return [...text].map((c) => {
    const i = CHARS.indexOf(c);
    if (i < 0) throw new RangeError(`rlvr tokenizer: no token for ${JSON.stringify(c)}`);
    return SPECIALS + i;
  });
}

/** The text of `ids` up to the first end token; padding and separators are dropped. */
export function decodeChars(ids: readonly number[]): string {
  let out = '';
  for (const id of ids) {
    if (id === EOS) break;
    if (id >= SPECIALS) out += CHARS[id - SPECIALS] as string;
  }
  return out;
}

/** A prompt left-padded to `width`, then the separator: every completion starts at the same position. */
export function encodePrompt(prompt: string, width: number): number[] {
  const ids = encodeChars(prompt);
  if (ids.length > width) throw new RangeError(`rlvr tokenizer: prompt longer than ${width}: ${prompt}`);
  return [...Array<number>(width - ids.length).fill(PAD), ...ids, SEP];
}
