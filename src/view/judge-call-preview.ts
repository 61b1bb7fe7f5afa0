import type { JudgeCall, JudgeCallMessage } from '../core/index.js';

/**
 * Longest text of one judge call sent inline (each message, the raw output, the parsed value as
 * JSON); the rest is fetched on demand. A judge's user message holds the response it judged, so
 * a response of megabytes makes every call that large.
 */
export const CALL_TEXT_CHARS = 20_000;

/** A judge call as the sample page gets it: every text cut at CALL_TEXT_CHARS. */
export type JudgeCallPreview = Omit<JudgeCall, 'messages'> & {
  messages: Array<JudgeCallMessage & { content_chars?: number }>;
  /** The raw output's length, present when `raw` was cut. */
  raw_chars?: number;
  /** The parsed value's JSON length, present (and `parsed` left out) when it is too long to send. */
  parsed_chars?: number;
};

const cut = (text: string) =>
  text.length > CALL_TEXT_CHARS ? { text: text.slice(0, CALL_TEXT_CHARS), chars: text.length } : { text };

export function judgeCallPreview(call: JudgeCall): JudgeCallPreview {
  const { messages, raw, parsed, ...rest } = call;
  const cutRaw = cut(raw);
  const parsedChars = parsed === undefined ? 0 : JSON.stringify(parsed).length;
  return {
    ...rest,
    messages: messages.map((message) => {
      const content = cut(message.content);
      return {
        ...message,
        content: content.text,
        ...(content.chars !== undefined && { content_chars: content.chars }),
      };
    }),
    raw: cutRaw.text,
    ...(cutRaw.chars !== undefined && { raw_chars: cutRaw.chars }),
    ...(parsed !== undefined && (parsedChars > CALL_TEXT_CHARS ? { parsed_chars: parsedChars } : { parsed })),
  };
}

/** One whole text of a call, for the on-demand route: the raw output, the parsed JSON or a message. */
export function judgeCallText(
  call: JudgeCall,
  field: 'raw' | 'parsed' | 'message',
  message: number,
): string | undefined {
  if (field === 'raw') return call.raw;
  if (field === 'parsed') return call.parsed === undefined ? undefined : JSON.stringify(call.parsed, null, 2);
  return call.messages[message]?.content;
}
