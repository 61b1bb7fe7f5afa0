const pattern = (tag: string) => new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g');

/** The trimmed contents of every `<tag>…</tag>` block of `text`, in order. */
export function allTagged(text: string, tag: string): string[] {
  return [...text.matchAll(pattern(tag))].map((m) => (m[1] as string).trim());
}

/** The first `<tag>…</tag>` block of `text`, trimmed, or null. */
export function firstTagged(text: string, tag: string): string | null {
  return allTagged(text, tag)[0] ?? null;
}

const PROTOCOL = /<(\/?)(information|search|answer|question)\b/gi;

/**
 * Retrieved text with the protocol's tags made inert (`<answer>` → `‹answer>`), so a document
 * cannot close the `<information>` block early or plant an answer in the agent's transcript.
 */
export function defangProtocolTags(text: string): string {
  return text.replace(PROTOCOL, '‹$1$2');
}
