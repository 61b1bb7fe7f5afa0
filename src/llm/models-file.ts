import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { issuesOf, issuesText, RewardKitError } from '../core/index.js';
import type { ChatModel } from './chat-model.js';
import { createLlamaCppModel } from './llama-cpp-model.js';
import { priced } from './middleware/priced.js';
import { createOpenAICompatibleModel } from './openai-compatible-model.js';
import { wrapChatModel } from './wrap-chat-model.js';

const EndpointEntry = z.strictObject({
  base_url: z.string().url(),
  /** The name of the environment variable holding the key: keys never live in the file. */
  api_key_env: z.string().optional(),
});

const OpenAICompatibleEntry = z.strictObject({
  backend: z.literal('openai_compatible'),
  /** The model id the backend expects. */
  model: z.string().min(1),
  base_url: z.string().url().optional(),
  api_key_env: z.string().optional(),
  endpoints: z.array(EndpointEntry).min(1).optional(),
  timeout_ms: z.number().int().positive().optional(),
  max_retries: z.number().int().nonnegative().optional(),
  max_concurrency: z.number().int().positive().optional(),
  requests_per_minute: z.number().int().positive().optional(),
  tokens_per_minute: z.number().int().positive().optional(),
  /** US dollars per million tokens: what runs report as their cost in money. */
  price: z.strictObject({ input: z.number().nonnegative(), output: z.number().nonnegative() }).optional(),
});

/** A GGUF file run in-process by node-llama-cpp. */
const LlamaCppEntry = z.strictObject({
  backend: z.literal('llama_cpp'),
  /** Relative to the models file's folder. */
  model_path: z.string().min(1),
  context_size: z.number().int().positive().optional(),
  threads: z.number().int().positive().optional(),
  gpu: z.union([z.literal(false), z.enum(['auto', 'cuda', 'vulkan', 'metal'])]).optional(),
  parallel: z.number().int().positive().optional(),
  max_tokens: z.number().int().positive().optional(),
  seed: z.number().int().optional(),
});

// An entry without `backend` is an OpenAI-compatible one, as before the local backend existed.
const ModelEntry = z.preprocess(
  (entry) =>
    typeof entry === 'object' && entry !== null && !('backend' in entry)
      ? { backend: 'openai_compatible', ...entry }
      : entry,
  z.discriminatedUnion('backend', [OpenAICompatibleEntry, LlamaCppEntry]),
);

export const ModelsFileSchema = z.strictObject({
  models: z.record(z.string().regex(/^[\w.-]+$/), ModelEntry),
});

/**
 * Models by name from a YAML/JSON models file. An OpenAI-compatible entry (the default backend)
 * has `model` and either `base_url` or a list of `endpoints`; API keys come from the environment
 * variables the file names. A `backend: llama_cpp` entry names a GGUF file by `model_path`,
 * relative to the models file.
 */
export function loadModelsFile(path: string, env: NodeJS.ProcessEnv = process.env): Map<string, ChatModel> {
  let document: unknown;
  try {
    document = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new RewardKitError(
      'RK_MODELS_INVALID',
      `${path}: cannot read the models file: ${(error as Error).message}`,
    );
  }
  const parsed = ModelsFileSchema.safeParse(document);
  if (!parsed.success) {
    throw new RewardKitError(
      'RK_MODELS_INVALID',
      `${path}: ${issuesText(issuesOf(parsed.error, '(root)'), 1)}`,
    );
  }
  return buildModels(parsed.data.models, {
    where: (field) => `${path}: ${field}`,
    baseDir: dirname(path),
    key: (name, field) => {
      if (name === undefined) return 'none';
      const value = env[name];
      if (value === undefined) {
        throw new RewardKitError(
          'RK_MODELS_INVALID',
          `${path}: ${field}: environment variable ${name} is not set`,
        );
      }
      return value;
    },
  });
}

const ENV_MODEL = /^REWARDKIT_MODEL_(\w+?)_(BASE_URL|MODEL|API_KEY)$/;

/**
 * Models defined by environment variables alone, for containers and CI where a file is awkward:
 * `REWARDKIT_MODEL_<NAME>_BASE_URL` and `REWARDKIT_MODEL_<NAME>_MODEL` define the model `<name>`
 * (lower-cased), `REWARDKIT_MODEL_<NAME>_API_KEY` is its key. A name with one of the two required
 * variables but not the other is an error that names the missing one.
 */
export function modelsFromEnv(env: NodeJS.ProcessEnv = process.env): Map<string, ChatModel> {
  const found = new Map<string, { BASE_URL?: string; MODEL?: string; API_KEY?: string }>();
  for (const [variable, value] of Object.entries(env)) {
    const match = ENV_MODEL.exec(variable);
    if (!match || value === undefined) continue;
    const [, name, field] = match as unknown as [string, string, 'BASE_URL' | 'MODEL' | 'API_KEY'];
    found.set(name, { ...found.get(name), [field]: value });
  }
  const entries: Record<string, z.output<typeof ModelEntry>> = {};
  const apiKeys = new Map<string, string>();
  for (const [name, vars] of found) {
    for (const required of ['BASE_URL', 'MODEL'] as const) {
      if (vars[required] === undefined) {
        throw new RewardKitError(
          'RK_MODELS_INVALID',
          `environment: REWARDKIT_MODEL_${name}_${required} is not set (model "${name.toLowerCase()}" is defined by REWARDKIT_MODEL_${name}_* variables)`,
        );
      }
    }
    const entry = OpenAICompatibleEntry.safeParse({
      backend: 'openai_compatible',
      model: vars.MODEL,
      base_url: vars.BASE_URL,
    });
    if (!entry.success) {
      throw new RewardKitError(
        'RK_MODELS_INVALID',
        `environment: REWARDKIT_MODEL_${name}_${entry.error.issues[0]?.path[0] === 'base_url' ? 'BASE_URL' : 'MODEL'}: ${entry.error.issues[0]?.message}`,
      );
    }
    entries[name.toLowerCase()] = entry.data;
    if (vars.API_KEY !== undefined) apiKeys.set(`models.${name.toLowerCase()}`, vars.API_KEY);
  }
  return buildModels(entries, {
    where: (field) => `environment: ${field}`,
    baseDir: process.cwd(),
    key: (_, field) => apiKeys.get(field) ?? 'none',
  });
}

/** Builds the models of validated entries; `key` resolves an entry's API key. */
function buildModels(
  entries: Record<string, z.output<typeof ModelEntry>>,
  context: {
    where: (field: string) => string;
    baseDir: string;
    key: (variable: string | undefined, field: string) => string;
  },
): Map<string, ChatModel> {
  const models = new Map<string, ChatModel>();
  for (const [name, entry] of Object.entries(entries)) {
    if (entry.backend === 'llama_cpp') {
      models.set(
        name,
        createLlamaCppModel({
          name,
          modelPath: resolve(context.baseDir, entry.model_path),
          ...(entry.context_size !== undefined && { contextSize: entry.context_size }),
          ...(entry.threads !== undefined && { threads: entry.threads }),
          ...(entry.gpu !== undefined && { gpu: entry.gpu }),
          ...(entry.parallel !== undefined && { parallel: entry.parallel }),
          ...(entry.max_tokens !== undefined && { maxTokens: entry.max_tokens }),
          ...(entry.seed !== undefined && { seed: entry.seed }),
        }),
      );
      continue;
    }
    const endpoints =
      entry.endpoints?.map((e, i) => ({
        baseURL: e.base_url,
        apiKey: context.key(e.api_key_env ?? entry.api_key_env, `models.${name}.endpoints.${i}`),
      })) ??
      (entry.base_url
        ? [{ baseURL: entry.base_url, apiKey: context.key(entry.api_key_env, `models.${name}`) }]
        : []);
    if (endpoints.length === 0) {
      throw new RewardKitError(
        'RK_MODELS_INVALID',
        `${context.where(`models.${name}`)}: needs "base_url" or "endpoints"`,
      );
    }
    const model = createOpenAICompatibleModel({
      name,
      model: entry.model,
      endpoints,
      ...(entry.timeout_ms !== undefined && { timeoutMs: entry.timeout_ms }),
      ...(entry.max_retries !== undefined && { maxRetries: entry.max_retries }),
      ...(entry.max_concurrency !== undefined && { maxConcurrency: entry.max_concurrency }),
      ...(entry.requests_per_minute !== undefined && { requestsPerMinute: entry.requests_per_minute }),
      ...(entry.tokens_per_minute !== undefined && { tokensPerMinute: entry.tokens_per_minute }),
    });
    models.set(name, entry.price ? wrapChatModel(model, [priced(entry.price)]) : model);
  }
  return models;
}
