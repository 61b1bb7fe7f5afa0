import type { ScriptRule } from './scripted-openai-server.js';

// Samples and scripted judge replies that several judge tests share.

const levels = (not: string, partly: string, fully: string) => ({
  not_met: not,
  partially_met: partly,
  fully_met: fully,
});

/** A RAG answer with its documents and an inline QuarkMedBench rubric: the claims and medical_rubric judges' sample. */
export const ragAnswerRow = (id: string, documents: string[]) => ({
  id,
  prompt: 'How big was Acme in 2023?',
  response: 'Acme had 1,200 staff and 40 offices.',
  metadata: {
    documents,
    rubric: {
      essential: [{ title: 'States the staff count', levels: levels('none', 'roughly', 'exactly') }],
      important: [{ title: 'Names the offices', levels: levels('no', 'vaguely', 'with a number') }],
      highlight: [],
      pitfall: [
        {
          title: 'Invents a figure',
          levels: { no_pitfall: 'no', minor_error: 'a small one', major_error: 'a key one' },
        },
      ],
    },
  },
});

/** OpenRS's intent analysis of a creative brief. */
export const openrsIntentRule: ScriptRule = {
  match: { role: 'system', contains: 'You analyse what a user wants' },
  reply: {
    content: JSON.stringify({
      query_type: 'creative brief',
      primary_need: 'a vivid line',
      secondary_needs: ['brevity'],
      user_context: 'unknown',
      domains: ['creative-writing'],
    }),
  },
};

/** An OpenRS comparison reply: five criteria, one deciding (`winner`, strength 2), the rest zero-strength. */
export const openrsComparison = (winner: 'A' | 'B' | 'same') =>
  JSON.stringify({
    differences: ['imagery'],
    criteria: Array.from({ length: 5 }, (_, i) => ({
      name: `c${i}`,
      type: 'core',
      evidence_a: 'a',
      evidence_b: 'b',
      reason: 'r',
      winner: i === 0 ? winner : 'same',
      strength: i === 0 ? 2 : 0,
    })),
  });

/** OpenRS comparisons, each answered by the text that is Response A: `{ALPHA: 'A'}` makes ALPHA win as A. */
export const openrsComparisonRules = (table: Record<string, 'A' | 'B' | 'same'>): ScriptRule[] =>
  Object.entries(table).map(([text, winner]) => ({
    match: { contains: new RegExp(`Response A:\\n<response-a-\\w+>\\n${text}\\n`) },
    reply: { content: openrsComparison(winner) },
  }));

/** A comparison reply for whichever text sits in position A, under a meta-rubric holding `marker`. */
export const openrsWhenA = (text: string, winner: 'A' | 'B', marker = ''): ScriptRule => ({
  match: { contains: new RegExp(`${marker}[\\s\\S]*Response A:\\n<response-a-\\w+>\\n${text}\\n`) },
  reply: { content: openrsComparison(winner) },
});
