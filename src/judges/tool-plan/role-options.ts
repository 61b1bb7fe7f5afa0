import type { ChatModel } from '../../llm/index.js';

/** What every role's call takes. */
export interface RoleCallOptions {
  model: ChatModel;
  /** Re-asks after unreadable output (default 2). */
  reasks?: number;
  temperature?: number;
  signal?: AbortSignal;
}

export const requestExtras = (o: RoleCallOptions) => ({
  ...(o.temperature !== undefined && { temperature: o.temperature }),
  ...(o.signal !== undefined && { signal: o.signal }),
});
