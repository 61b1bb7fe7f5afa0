export { BackendDownError } from './backend-down-error.js';
export {
  type CacheOptions,
  caching,
  type ResponseCache,
  requestKey,
  withResponseCache,
} from './cached-model.js';
export type { ChatTool, ToolCall, ToolChoice } from './chat-model.js';
export {
  type ChatMessage as LlmMessage,
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  type ChatUsage,
  type ContentPart,
  type FinishReason,
  finishReasonOf,
} from './chat-model.js';
export { createEndpointLimits, type EndpointLimitOptions, type EndpointLimits } from './endpoint-limits.js';
export { type GrammarSchema, grammarSchemaOf } from './grammar-schema-of.js';
export { judgeCallOf, judgeCallsOf, tagCallOrder } from './judge-call-of.js';
export {
  createLlamaCppModel,
  type LlamaCppConfig,
  LlamaCppConfigSchema,
  type LlamaCppModel,
} from './llama-cpp-model.js';
export { type CircuitBreaker, createCircuitBreaker } from './middleware/circuit-breaker.js';
export { droppingRejectedThinking } from './middleware/dropping-rejected-thinking.js';
export { endpointLimited } from './middleware/endpoint-limited.js';
export { type ChatCallEvent, logging } from './middleware/logging.js';
export { type RetryOptions, retrying } from './middleware/retrying.js';
export { rotatingEndpoints } from './middleware/rotating-endpoints.js';
export { loadModelsFile, ModelsFileSchema, modelsFromEnv } from './models-file.js';
export {
  createOpenAICompatibleModel,
  EndpointSchema,
  type OpenAICompatibleConfig,
  OpenAICompatibleConfigSchema,
  type OpenAIEndpointOptions,
  openAIEndpoint,
} from './openai-compatible-model.js';
export { type ParseRoute, parseStructured, type StructuredParse } from './parse-structured.js';
export { type CallTrace, callStructured, type StructuredOutcome } from './structured-call.js';
export { addUsage, type CallUsage, callUsageOf, usageOf } from './usage-of.js';
export { type ChatModelMiddleware, wrapChatModel } from './wrap-chat-model.js';
