/** Why a tool call was refused; the model sees the code, the message and a hint. */
export type ToolErrorCode =
  | 'unknown_tool'
  | 'bad_arguments'
  | 'unknown_skill'
  | 'unknown_resource'
  | 'not_runnable'
  | 'cap_exceeded'
  | 'resource_failed';

/** A structured tool error: what the model reads in the tool message instead of a result. */
export interface ToolError {
  readonly error: ToolErrorCode;
  readonly message: string;
  readonly hint: string;
  /** For `cap_exceeded`: which cap and its limit. */
  readonly cap?: string;
  readonly limit?: number;
}

export const FINALIZE_HINT = 'Finalize now: call final_answer with the evidence you have.';

export function toolError(
  error: ToolErrorCode,
  message: string,
  hint: string,
  extra: Partial<ToolError> = {},
): ToolError {
  return { error, message, hint, ...extra };
}
