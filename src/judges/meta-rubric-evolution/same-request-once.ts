import type { ChatModel, ChatRequest, ChatResponse } from '../../llm/index.js';

/**
 * The model with each distinct request sent once and its answer shared by every later identical
 * request, for one run. Evolution judges the same pairs under many meta-rubrics: OpenRS's intent
 * analysis sees only the query, so its request is the same for every variant and is asked once
 * per pair; every variant then compares under the same intent, so a fitness difference comes from
 * the meta-rubric alone. A failed call is forgotten, so the next identical request tries again.
 */
export function answerSameRequestOnce(model: ChatModel): ChatModel {
  const answers = new Map<string, Promise<ChatResponse>>();
  return {
    name: model.name,
    ...(model.ready && { ready: () => model.ready?.() ?? Promise.resolve() }),
    complete(request: ChatRequest) {
      const { signal: _, ...asked } = request;
      const key = JSON.stringify(asked);
      const known = answers.get(key);
      if (known) return known;
      const answer = model.complete(request);
      answers.set(key, answer);
      answer.catch(() => answers.delete(key));
      return answer;
    },
  };
}
