import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type {
  ChatModelFunctions,
  Llama,
  LlamaContext,
  LlamaContextSequence,
  LlamaGrammar,
  LlamaModel,
} from 'node-llama-cpp';
import { z } from 'zod';
import { parseArgument, RewardKitError } from '../core/index.js';
import {
  type ChatModel,
  ChatModelError,
  type ChatRequest,
  type ChatResponse,
  finishReasonOf,
  type ToolCall,
} from './chat-model.js';
import { grammarSchemaOf } from './grammar-schema-of.js';
import { createItemPool, type ItemPool } from './item-pool.js';
import { jsonSchemaOf } from './json-schema-of.js';
import { toLlamaChatHistory } from './llama-chat-history.js';
import { loadNodeLlamaCpp } from './load-node-llama-cpp.js';
import { readToolCall } from './read-tool-call.js';

export const LlamaCppConfigSchema = z.object({
  /** The name judges and specs refer to. */
  name: z.string().min(1),
  /** The GGUF file. */
  modelPath: z.string().min(1),
  /** Tokens per sequence; default: the model's training context, capped by what memory allows. */
  contextSize: z.number().int().positive().optional(),
  /** CPU threads for evaluation; default: node-llama-cpp's choice for this machine. */
  threads: z.number().int().positive().optional(),
  /** `false`: CPU only; `auto` (default): the best prebuilt GPU binary found, else the CPU. */
  gpu: z.union([z.literal(false), z.enum(['auto', 'cuda', 'vulkan', 'metal'])]).default('auto'),
  /** Generations run at once, each on its own context sequence (default 1). */
  parallel: z.number().int().positive().default(1),
  /** The default token limit of an answer; a request's `maxTokens` wins. */
  maxTokens: z.number().int().positive().optional(),
  /** The default sampling seed; a request's `seed` wins. */
  seed: z.number().int().optional(),
});
export type LlamaCppConfig = z.input<typeof LlamaCppConfigSchema>;

/** A local model; `close` frees its context (the loaded weights stay shared). */
export interface LlamaCppModel extends ChatModel {
  close(): Promise<void>;
}

interface Loaded {
  llama: Llama;
  model: LlamaModel;
  context: LlamaContext;
  sequences: ItemPool<LlamaContextSequence>;
}

// One runtime per GPU choice and one copy of each weights file per process, however many models
// (names, contexts) use it.
const runtimes = new Map<string, Promise<Llama>>();
const weights = new Map<string, Promise<LlamaModel>>();

function shared<T>(cache: Map<string, Promise<T>>, key: string, make: () => Promise<T>): Promise<T> {
  let pending = cache.get(key);
  if (!pending) {
    pending = make();
    cache.set(key, pending);
    // A failure is not kept: the next call tries again (say, after the binary was installed).
    pending.catch(() => cache.delete(key));
  }
  return pending;
}

/** node-llama-cpp's stop reasons in the OpenAI words `finishReasonOf` knows. */
const FINISH: Record<string, string> = {
  eogToken: 'stop',
  stopGenerationTrigger: 'stop',
  customStopTrigger: 'stop',
  maxTokens: 'length',
  functionCalls: 'tool_calls',
};

/**
 * A GGUF model run in-process by node-llama-cpp (an optional dependency, imported on first use).
 * The weights load once, lazily, and are shared; `parallel` context sequences bound how many
 * answers are generated at once, the rest wait in order. `responseSchema` becomes a JSON grammar,
 * so the model can only write JSON of that shape; tools use node-llama-cpp's function calling.
 * Prebuilt binaries only: nothing is downloaded or compiled at run time.
 */
export function createLlamaCppModel(config: LlamaCppConfig): LlamaCppModel {
  const c = parseArgument(LlamaCppConfigSchema, config, 'llama.cpp model config');
  const modelPath = resolve(c.modelPath);
  let loading: Promise<Loaded> | undefined;
  const grammars = new WeakMap<z.ZodType, Promise<{ grammar: LlamaGrammar; warnings: string[] }>>();

  // The package first: without it no model file would help, so that is what to say.
  const ready = async () => {
    const lib = await loadNodeLlamaCpp();
    if (!existsSync(modelPath)) {
      throw new RewardKitError(
        'RK_USAGE',
        `model "${c.name}": the GGUF file ${modelPath} does not exist (modelPath); check the path, which a models file resolves against its own folder`,
      );
    }
    return lib;
  };

  const load = async (): Promise<Loaded> => {
    const lib = await ready();
    const gpuKey = String(c.gpu);
    const llama = await shared(runtimes, gpuKey, async () => {
      try {
        return await lib.getLlama({
          gpu: c.gpu,
          build: 'never',
          skipDownload: true,
          progressLogs: false,
          logLevel: lib.LlamaLogLevel.error,
        });
      } catch (error) {
        throw new RewardKitError(
          'RK_BACKEND_UNAVAILABLE',
          `model "${c.name}": node-llama-cpp has no usable prebuilt binary for ${process.platform}-${process.arch} with gpu: ${gpuKey} (${(error as Error).message}). Try gpu: false for the CPU binary, reinstall node-llama-cpp so npm fetches its @node-llama-cpp/* binary package, or build one with "npx --no node-llama-cpp source download"`,
          { cause: error },
        );
      }
    });
    const model = await shared(weights, `${gpuKey}\u0000${modelPath}`, async () => {
      try {
        return await llama.loadModel({ modelPath });
      } catch (error) {
        throw new RewardKitError(
          'RK_USAGE',
          `model "${c.name}": ${modelPath} could not be loaded as a GGUF model: ${(error as Error).message}`,
          { cause: error },
        );
      }
    });
    const context = await model.createContext({
      sequences: c.parallel,
      ...(c.contextSize !== undefined && { contextSize: c.contextSize }),
      ...(c.threads !== undefined && { threads: c.threads }),
    });
    const sequences = Array.from({ length: c.parallel }, () => context.getSequence());
    return { llama, model, context, sequences: createItemPool(sequences) };
  };

  const loaded = () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };

  const grammarFor = (llama: Llama, schema: z.ZodType) => {
    let pending = grammars.get(schema);
    if (!pending) {
      pending = (async () => {
        const { schema: gbnf, warnings } = grammarSchemaOf(jsonSchemaOf(schema));
        // grammarSchemaOf writes only what node-llama-cpp's schema type allows.
        const grammar = await llama.createGrammarForJsonSchema(
          gbnf as Parameters<Llama['createGrammarForJsonSchema']>[0],
        );
        return { grammar, warnings: warnings.map((w) => `responseSchema: ${w}`) };
      })();
      grammars.set(schema, pending);
    }
    return pending;
  };

  return {
    name: c.name,
    async ready() {
      await ready();
    },
    async close() {
      const current = loading;
      loading = undefined;
      if (current) await (await current.catch(() => null))?.context.dispose();
    },
    async complete(request: ChatRequest): Promise<ChatResponse> {
      const history = toLlamaChatHistory(request.messages);
      const warnings: string[] = [];
      if (request.enableThinking !== undefined) {
        warnings.push('enableThinking is not supported by the local GGUF backend: ignored');
      }
      const { llama, sequences } = await loaded();
      let grammar: LlamaGrammar | undefined;
      if (request.responseSchema) {
        const compiled = await grammarFor(llama, request.responseSchema.schema);
        grammar = compiled.grammar;
        warnings.push(...compiled.warnings);
      }
      const functions = toolFunctions(request, grammar !== undefined, warnings);
      const lib = await loadNodeLlamaCpp();
      const { item: sequence, release } = await sequences.acquire(request.signal);
      const started = performance.now();
      try {
        // A clean sequence per answer: the token meter then counts the whole prompt, and no
        // state leaks from one request into another.
        await sequence.clearHistory();
        const before = sequence.tokenMeter.getState();
        const chat = new lib.LlamaChat({ contextSequence: sequence, autoDisposeSequence: false });
        try {
          const seed = request.seed ?? c.seed;
          const maxTokens = request.maxTokens ?? c.maxTokens;
          const options = {
            ...(request.signal && { signal: request.signal }),
            ...(request.temperature !== undefined && { temperature: request.temperature }),
            ...(request.topP !== undefined && { topP: request.topP }),
            ...(seed !== undefined && { seed }),
            ...(maxTokens !== undefined && { maxTokens }),
          };
          const result = functions
            ? await chat.generateResponse(history, { ...options, functions })
            : await chat.generateResponse(history, { ...options, ...(grammar && { grammar }) });
          const used = sequence.tokenMeter.diff(before);
          const toolCalls: ToolCall[] = (result.functionCalls ?? []).map((call, i) =>
            readToolCall(
              { id: `call_${i}`, name: call.functionName, arguments: call.params },
              request.tools ?? [],
            ),
          );
          return {
            content: result.response,
            ...finishReasonOf(FINISH[result.metadata.stopReason] ?? result.metadata.stopReason),
            usage: { promptTokens: used.usedInputTokens, completionTokens: used.usedOutputTokens },
            model: c.name,
            endpoint: `gguf:${modelPath}`,
            latencyMs: performance.now() - started,
            retries: 0,
            ...(toolCalls.length > 0 && { toolCalls }),
            ...(warnings.length > 0 && { warnings }),
          };
        } finally {
          chat.dispose({ disposeSequence: false });
        }
      } catch (error) {
        if (request.signal?.aborted || RewardKitError.isInstance(error)) throw error;
        const reason = error instanceof Error ? error.message : String(error);
        throw new ChatModelError(`model "${c.name}" failed: ${reason}`, [reason]);
      } finally {
        release();
      }
    },
  };
}

/** The request's tools as node-llama-cpp functions, or undefined when none are to be offered. */
function toolFunctions(
  request: ChatRequest,
  hasGrammar: boolean,
  warnings: string[],
): ChatModelFunctions | undefined {
  if (!request.tools?.length || request.toolChoice === 'none') return undefined;
  if (hasGrammar) {
    warnings.push(
      'tools are not offered together with responseSchema: node-llama-cpp cannot combine a JSON grammar with function calling',
    );
    return undefined;
  }
  const choice = request.toolChoice;
  if (choice !== undefined && choice !== 'auto') {
    warnings.push(
      `toolChoice ${JSON.stringify(choice)} is not supported by the local GGUF backend: the model decides (auto)`,
    );
  }
  const functions: Record<string, { description?: string; params: unknown }> = {};
  for (const tool of request.tools) {
    const { schema, warnings: lost } = grammarSchemaOf(jsonSchemaOf(tool.parameters));
    warnings.push(...lost.map((w) => `tools.${tool.name}: ${w}`));
    functions[tool.name] = {
      ...(tool.description !== undefined && { description: tool.description }),
      params: schema,
    };
  }
  return functions as ChatModelFunctions;
}
