import type { LlmUsage } from '../core/index.js';
import { type ChatModel, type LlmMessage, usageOf } from '../llm/index.js';
import { addUsage, callUsageOf } from '../llm/usage-of.js';
import { type RetrievedDoc, type Retriever, renderDocuments } from '../retrieval/index.js';
import { defangProtocolTags, firstTagged } from './tagged-blocks.js';

/** How a search agent (proposer or solver) is run. */
export interface SearchAgentOptions {
  model: ChatModel;
  retriever: Retriever;
  /** The system and first user message. */
  messages: LlmMessage[];
  /** The tag that ends the episode: `answer` for the solver, `question` for the proposer. */
  stopTag: 'answer' | 'question';
  /** Documents per search (default 3). */
  topk?: number;
  /** Model calls at most (default 10). */
  maxTurns?: number;
  temperature?: number;
  maxTokens?: number;
  seed?: number;
}

/** One episode: the whole transcript and what was searched and found. */
export interface SearchTrajectory {
  messages: LlmMessage[];
  turns: number;
  /** The queries, in order, as written. */
  searches: string[];
  /** The documents each search returned. */
  documents: RetrievedDoc[][];
  /** Every assistant turn, joined: where answer tags are counted. */
  assistantText: string;
  /** `done`: a turn held the stop tag; `max_turns`: the turn budget ran out first. */
  stopped: 'done' | 'max_turns';
  usage: LlmUsage;
}

/** What the agent is told after a turn with neither a search nor the stop tag. */
const nudge = (stopTag: string) =>
  `Your reply had neither a <search>query</search> nor a <${stopTag}>…</${stopTag}> block. Search with <search>query</search>, or finish with <${stopTag}>…</${stopTag}>.`;

/**
 * The multi-turn search protocol over any chat backend: each assistant turn either ends with the
 * stop tag, or searches with `<search>query</search>` (the first search of the turn is run) and
 * gets the documents back as `<information>Doc 1 (Title: …) …</information>` in the next user
 * turn. Backend and retriever failures throw: a failed episode is never scored as a wrong one.
 */
export async function runSearchAgent(options: SearchAgentOptions): Promise<SearchTrajectory> {
  const messages = [...options.messages];
  const maxTurns = options.maxTurns ?? 10;
  const trajectory: SearchTrajectory = {
    messages,
    turns: 0,
    searches: [],
    documents: [],
    assistantText: '',
    stopped: 'max_turns',
    usage: usageOf([]),
  };
  while (trajectory.turns < maxTurns) {
    const response = await options.model.complete({
      messages: [...messages],
      ...(options.temperature !== undefined && { temperature: options.temperature }),
      ...(options.maxTokens !== undefined && { maxTokens: options.maxTokens }),
      ...(options.seed !== undefined && { seed: options.seed + trajectory.turns }),
    });
    trajectory.turns++;
    trajectory.usage = addUsage(trajectory.usage, usageOf([callUsageOf(response)]));
    const text = response.content;
    messages.push({ role: 'assistant', content: text });
    trajectory.assistantText += `${trajectory.assistantText === '' ? '' : '\n'}${text}`;
    if (firstTagged(text, options.stopTag) !== null) {
      trajectory.stopped = 'done';
      break;
    }
    const query = firstTagged(text, 'search');
    if (query === null || query === '') {
      messages.push({ role: 'user', content: nudge(options.stopTag) });
      continue;
    }
    const [docs = []] = await options.retriever.search([query], options.topk ?? 3);
    trajectory.searches.push(query);
    trajectory.documents.push(docs);
    const rendered = docs.length === 0 ? 'No documents found.' : defangProtocolTags(renderDocuments(docs));
    messages.push({ role: 'user', content: `<information>\n${rendered}\n</information>` });
  }
  return trajectory;
}
