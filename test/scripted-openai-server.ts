import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach } from 'vitest';

/** A chat completion request as the server received it. */
export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    messages?: Array<{ role: string; content: unknown }>;
    [key: string]: unknown;
  };
}

/** What the server does for a matching request. */
export type ScriptedReply =
  | {
      content: string;
      /** Sent as written: backends have their own words (`eos`, `abort`). */
      finishReason?: string;
      /** `null`: the reply carries no usage at all, as some backends send it. */
      usage?: { prompt_tokens: number; completion_tokens: number } | null;
      /** Tool calls the reply makes; `arguments` is sent as written, so it may be broken JSON. */
      toolCalls?: Array<{ id?: string; name: string; arguments: string }>;
    }
  | { status: number; error?: string }
  /** Accept the request and never answer (the client's timeout must fire). */
  | { hang: true }
  /** Send headers and half a body, then cut the connection. */
  | { truncate: true };

export interface ScriptRule {
  /** Which requests this rule answers; all given conditions must hold. */
  match?: { model?: string; contains?: string | RegExp; role?: string };
  reply: ScriptedReply;
  /** Answer this many matching requests, then step aside (default: unlimited). */
  times?: number;
  /** Wait before answering, in milliseconds. */
  delayMs?: number;
}

export interface ScriptedOpenAIServer {
  /** Base URL ending in `/v1`, as OpenAI-compatible clients expect. */
  url: string;
  requests: RecordedRequest[];
  /** Add rules; earlier rules are tried first. */
  script(...rules: ScriptRule[]): void;
  close(): Promise<void>;
}

const textOf = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part?.text === 'string' ? part.text : '')).join('\n')
      : '';

function matches(rule: ScriptRule, body: RecordedRequest['body']): boolean {
  const m = rule.match;
  if (!m) return true;
  if (m.model !== undefined && body.model !== m.model) return false;
  const messages = (body.messages ?? []).filter((msg) => m.role === undefined || msg.role === m.role);
  const text = messages.map((msg) => textOf(msg.content)).join('\n');
  if (m.contains instanceof RegExp) return m.contains.test(text);
  if (typeof m.contains === 'string') return text.includes(m.contains);
  return true;
}

/**
 * An OpenAI-compatible `/v1/chat/completions` server for tests: replies come from a script matched
 * on the request, every request is recorded (so a test can assert what each role saw), and faults
 * are injected on demand — HTTP errors, hangs, cut connections, `finish_reason: "length"`. A reply
 * may carry `tool_calls`.
 * A request no rule matches gets HTTP 500 naming that, so a test never passes by accident.
 */
export async function startScriptedOpenAIServer(): Promise<ScriptedOpenAIServer> {
  const rules: Array<ScriptRule & { used: number }> = [];
  const requests: RecordedRequest[] = [];
  const hanging = new Set<ServerResponse>();
  let completionId = 0;

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body: RecordedRequest['body'] = {};
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      } catch {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'request body is not JSON' } }));
        return;
      }
      requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `no route ${req.method} ${req.url}` } }));
        return;
      }
      const rule = rules.find((r) => (r.times === undefined || r.used < r.times) && matches(r, body));
      if (!rule) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'no scripted reply matches this request' } }));
        return;
      }
      rule.used++;
      const answer = () => {
        const reply = rule.reply;
        if ('hang' in reply) {
          hanging.add(res);
          return;
        }
        if ('truncate' in reply) {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write(
            '{"id": "cmpl-cut", "choices": [{"index": 0, "message": {"role": "assistant", "content": "{\\"win',
          );
          res.socket?.destroy();
          return;
        }
        if ('status' in reply) {
          res.writeHead(reply.status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: reply.error ?? `scripted HTTP ${reply.status}` } }));
          return;
        }
        const usage = reply.usage === undefined ? { prompt_tokens: 10, completion_tokens: 5 } : reply.usage;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            id: `cmpl-${++completionId}`,
            object: 'chat.completion',
            created: 0,
            model: body.model ?? 'scripted',
            choices: [
              {
                index: 0,
                message: {
                  role: 'assistant',
                  content: reply.content,
                  ...(reply.toolCalls && {
                    tool_calls: reply.toolCalls.map((call, i) => ({
                      id: call.id ?? `call_${completionId}_${i}`,
                      type: 'function',
                      function: { name: call.name, arguments: call.arguments },
                    })),
                  }),
                },
                finish_reason: reply.finishReason ?? (reply.toolCalls ? 'tool_calls' : 'stop'),
              },
            ],
            ...(usage !== null && {
              usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
            }),
          }),
        );
      };
      if (rule.delayMs) setTimeout(answer, rule.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    script: (...added) => rules.push(...added.map((r) => ({ ...r, used: 0 }))),
    close: async () => {
      for (const res of hanging) res.socket?.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The scripted server of every test in a file: a fresh one is started before each test and closed
 * after it. The object returned stands for the running test's server.
 */
export function scriptedServerPerTest(): ScriptedOpenAIServer {
  let current: ScriptedOpenAIServer | undefined;
  beforeEach(async () => {
    current = await startScriptedOpenAIServer();
  });
  afterEach(async () => {
    await current?.close();
    current = undefined;
  });
  return new Proxy({} as ScriptedOpenAIServer, {
    get(_target, key) {
      if (!current) throw new Error('the scripted server runs only inside a test');
      const value: unknown = Reflect.get(current, key, current);
      return typeof value === 'function' ? value.bind(current) : value;
    },
  });
}

/**
 * The base URL of an OpenAI-compatible endpoint where nothing listens: every connection is
 * refused (a port the system handed out, then released).
 */
export async function refusingEndpoint(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/v1`;
}
