/**
 * `rewardkit/llm`: the chat-model interface, its two backends (OpenAI-compatible, GGUF through
 * node-llama-cpp, loaded on first use), the middleware that wraps a model (retries, cache,
 * rate limits, rotation, logging), structured calls and usage. Wire-format helpers stay inside.
 */
export { BackendDownError } from './backend-down-error.js';
export {
  type CacheOptions,
  caching,
  type ResponseCache,
  withResponseCache,
} from './cached-model.js';
export {
  type ChatMessage as LlmMessage,
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  type ChatTool,
  type ChatUsage,
  type ContentPart,
  type FinishReason,
  type ToolCall,
  type ToolChoice,
} from './chat-model.js';
export { createEndpointLimits, type EndpointLimitOptions, type EndpointLimits } from './endpoint-limits.js';
export { createLlamaCppModel, type LlamaCppConfig, type LlamaCppModel } from './llama-cpp-model.js';
export { type CircuitBreaker, createCircuitBreaker } from './middleware/circuit-breaker.js';
export { droppingRejectedThinking } from './middleware/dropping-rejected-thinking.js';
export { endpointLimited } from './middleware/endpoint-limited.js';
export { type ChatCallEvent, logging } from './middleware/logging.js';
export { type RetryOptions, retrying } from './middleware/retrying.js';
export { rotatingEndpoints } from './middleware/rotating-endpoints.js';
export { loadModelsFile, modelsFromEnv } from './models-file.js';
export {
  createOpenAICompatibleModel,
  type OpenAICompatibleConfig,
  type OpenAIEndpointOptions,
  openAIEndpoint,
} from './openai-compatible-model.js';
export { type CallTrace, callStructured, type StructuredOutcome } from './structured-call.js';
export { type CallUsage, usageOf } from './usage-of.js';
export { type ChatModelMiddleware, wrapChatModel } from './wrap-chat-model.js';
