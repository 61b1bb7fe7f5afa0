import { z } from 'zod';

export const ChatMessageSchema = z.object({
  role: z.enum(['system', 'user', 'assistant', 'tool']),
  content: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** A row id as datasets write it (string or integer), kept as a string: runs resume by it. */
export const SampleIdSchema = z.union([z.string().min(1), z.number().int()]).transform(String);

/** One model output to be rewarded, with everything a verifier may check it against. */
export const SampleSchema = z.object({
  /** Stable id: runs resume by it and results are keyed on it. */
  id: SampleIdSchema,
  /** The prompt as plain text or as chat messages. */
  prompt: z.union([z.string(), z.array(ChatMessageSchema)]).optional(),
  /** The model output under judgment. Untrusted text. */
  response: z.string(),
  /** Gold answer(s); verifiers that accept several golds take any match. */
  reference: z.union([z.string(), z.array(z.string())]).optional(),
  /** Routes the sample to a spec branch (e.g. `gsm8k`, `ifeval`). */
  data_source: z.string().optional(),
  /** Samples sharing a group id are shaped together (GRPO-style). */
  group: z.union([z.string(), z.number()]).transform(String).optional(),
  /** Anything else a source needs: test cases, instruction ids, kwargs. */
  metadata: z.record(z.string(), z.unknown()).default({}),
});
export type Sample = z.output<typeof SampleSchema>;
export type SampleInput = z.input<typeof SampleSchema>;

/** The prompt flattened to text, for verifiers that need it (e.g. IFEval's repeat-prompt check). */
export function promptText(sample: Pick<Sample, 'prompt'>): string {
  if (sample.prompt === undefined) return '';
  if (typeof sample.prompt === 'string') return sample.prompt;
  return sample.prompt
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
}

/** References as a list, whatever form they came in. */
export function referencesOf(sample: Pick<Sample, 'reference'>): string[] {
  if (sample.reference === undefined) return [];
  return Array.isArray(sample.reference) ? sample.reference : [sample.reference];
}

/** What a sample judged — its prompt, response and reference — as a stored result keeps it beside itself. */
export function sampleText(
  sample: Pick<Sample, 'prompt' | 'response' | 'reference'>,
): Pick<Sample, 'prompt' | 'response' | 'reference'> {
  return {
    ...(sample.prompt !== undefined && { prompt: sample.prompt }),
    response: sample.response,
    ...(sample.reference !== undefined && { reference: sample.reference }),
  };
}
