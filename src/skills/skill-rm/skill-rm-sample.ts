/**
 * What Skill-RM judges: the request, its response(s), and what the sample carries beside them.
 * Everything here is untrusted; what reaches the model is sanitized and filtered by visibility.
 */
export interface SkillRmSample {
  readonly prompt: string;
  /** The sample's reference answer(s) or ground truth. */
  readonly reference?: string | readonly string[] | undefined;
  /** The sample's metadata (data source, domain, tests, instruction ids, …). */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
  /** Constraints the response must satisfy: free text or IFEval `{instruction_id, kwargs}`. */
  readonly checklist?: readonly unknown[] | undefined;
}
