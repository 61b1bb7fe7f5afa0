// A fixed-latency OpenAI-compatible server in its own process, so its work does not share the
// measured process's event loop. It answers each request by the JSON schema name it asks for
// (`replies[name]`, else `{}`; `pickName`, JavaScript source of `(request, name) => name`, may
// refine the name), or, given `replyOf` (JavaScript source of `(request, counters) => message`),
// with whatever message that returns (tool calls included: a scripted agent); tokens are
// estimated as characters / 4; GET /stats returns counters.
import { spawn } from 'node:child_process';

export async function startScriptedLlmServer(
  replies,
  latencyMs,
  pickName = '(request, name) => name',
  replyOf = undefined,
) {
  const source = `
    const { createServer } = require('node:http');
    const counters = { calls: 0, promptTokens: 0, completionTokens: 0 };
    const replies = ${JSON.stringify(Object.fromEntries(Object.entries(replies).map(([k, v]) => [k, JSON.stringify(v)])))};
    // A scripted reply's tokens are its content's; a scripted agent's are the whole message's.
    const answer = ${
      replyOf === undefined
        ? `(request) => {
      const reply = replies[(${pickName})(request, request.response_format?.json_schema?.name)] ?? '{}';
      return { message: { content: reply }, text: reply };
    }`
        : `(request, counters) => {
      const message = (${replyOf})(request, counters);
      return { message, text: JSON.stringify(message) };
    }`
    };
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        if (req.method === 'GET') return res.end(JSON.stringify(counters));
        const { message, text } = answer(JSON.parse(body), counters);
        const promptTokens = Math.ceil(body.length / 4);
        const completionTokens = Math.ceil(text.length / 4);
        counters.calls++;
        counters.promptTokens += promptTokens;
        counters.completionTokens += completionTokens;
        setTimeout(() => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ id: 'x', object: 'chat.completion', created: 0, model: 'm',
            choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
            usage: { prompt_tokens: promptTokens, completion_tokens: completionTokens } }));
        }, ${latencyMs});
      });
    });
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', source], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise((resolve) =>
    child.stdout.once('data', (d) => resolve(Number(String(d).trim()))),
  );
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    stats: async () => (await fetch(`http://127.0.0.1:${port}/stats`)).json(),
    stop: () => child.kill(),
  };
}
