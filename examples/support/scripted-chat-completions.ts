import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One assistant turn: the tool calls it makes, or its final text. */
export type ScriptedTurn =
  | { readonly toolCalls: ReadonlyArray<{ readonly id: string; readonly name: string; readonly arguments: string }> }
  | { readonly text: string };

/**
 * A local stand-in for the model behind the Chat Completions API (`POST /v1/chat/completions`), so an
 * example runs the real `openai` client over real HTTP without an API key: each request is answered with
 * the next scripted assistant turn, and every request body is kept (what the model was sent).
 */
export class ScriptedChatCompletions {
  /** The JSON bodies the client sent, in order. */
  readonly requests: Array<{ messages: Array<Record<string, unknown>>; tools?: unknown[] }> = [];
  private constructor(
    private readonly server: Server,
    /** The baseURL to give the OpenAI client. */
    readonly baseURL: string,
  ) {}

  static async start(turns: readonly ScriptedTurn[]): Promise<ScriptedChatCompletions> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const model = new ScriptedChatCompletions(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || !request.url?.startsWith('/v1/chat/completions')) {
          response.writeHead(404, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: 'not found', type: 'invalid_request_error' } }));
          return;
        }
        model.requests.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        const turn = turns[model.requests.length - 1] ?? { text: 'Done.' };
        const message =
          'toolCalls' in turn
            ? {
                role: 'assistant',
                content: null,
                refusal: null,
                tool_calls: turn.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : { role: 'assistant', content: turn.text, refusal: null };
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            id: `chatcmpl-${model.requests.length}`,
            object: 'chat.completion',
            created: 1_767_225_600,
            model: 'scripted',
            choices: [
              {
                index: 0,
                message,
                finish_reason: 'toolCalls' in turn ? 'tool_calls' : 'stop',
                logprobs: null,
              },
            ],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        );
      });
    });
    return model;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
