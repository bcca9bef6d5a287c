import { EventEmitter } from 'node:events';
import type { ServerResponse } from 'node:http';
import { describe, expect, it } from 'vitest';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { JsonReplyTransport } from './json-reply-transport.js';

/** What a ServerResponse is asked here: the status, headers and body it ended with. */
class RecordedResponse extends EventEmitter {
  status = 0;
  headers: Record<string, unknown> = {};
  body = '';
  headersSent = false;
  writableEnded = false;
  readonly done: Promise<void>;
  private finish!: () => void;
  constructor() {
    super();
    this.done = new Promise((resolve) => (this.finish = resolve));
  }
  writeHead(status: number, headers: Record<string, unknown> = {}) {
    this.status = status;
    this.headers = headers;
    this.headersSent = true;
    return this;
  }
  end(body = '') {
    this.body = body;
    this.writableEnded = true;
    this.finish();
    return this;
  }
  get json(): { id: unknown; result?: { content?: { text: string }[] }; error?: unknown } {
    return JSON.parse(this.body);
  }
}

async function serverWithSlowEcho() {
  const server = new Server({ name: 't', version: '1' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: [] }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const text = String(request.params.arguments?.text);
    await new Promise((resolve) => setTimeout(resolve, Number(request.params.arguments?.delayMs ?? 0)));
    return { content: [{ type: 'text', text }] };
  });
  const transport = new JsonReplyTransport();
  await server.connect(transport);
  return { server, transport };
}

const call = (id: number | string, text: string, delayMs = 0) => ({
  jsonrpc: '2.0' as const,
  id,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text, delayMs } },
});

describe('JsonReplyTransport', () => {
  it('given two clients of one session sending the same request id at once, then each gets its own answer under its own id', async () => {
    const { transport } = await serverWithSlowEcho();
    const first = new RecordedResponse();
    const second = new RecordedResponse();
    transport.request(call(1, 'slow answer', 30), first as unknown as ServerResponse);
    transport.request(call(1, 'fast answer'), second as unknown as ServerResponse);
    await Promise.all([first.done, second.done]);
    expect([first.status, first.json.id, first.json.result?.content?.[0]?.text]).toEqual([200, 1, 'slow answer']);
    expect([second.status, second.json.id, second.json.result?.content?.[0]?.text]).toEqual([200, 1, 'fast answer']);
    expect(first.headers['content-type']).toBe('application/json');
  });

  it('keeps a string id as the client sent it', async () => {
    const { transport } = await serverWithSlowEcho();
    const res = new RecordedResponse();
    transport.request(call('req-7', 'x'), res as unknown as ServerResponse);
    await res.done;
    expect(res.json.id).toBe('req-7');
  });

  it('given a client that hung up, then its answer is dropped and later requests are answered', async () => {
    const { transport } = await serverWithSlowEcho();
    const gone = new RecordedResponse();
    transport.request(call(1, 'lost', 20), gone as unknown as ServerResponse);
    gone.emit('close');
    const next = new RecordedResponse();
    transport.request(call(2, 'kept'), next as unknown as ServerResponse);
    await next.done;
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(gone.writableEnded).toBe(false);
    expect(next.json.result?.content?.[0]?.text).toBe('kept');
  });

  it('given the session closes with a request waiting, then that client gets a JSON-RPC error, not silence', async () => {
    const { server, transport } = await serverWithSlowEcho();
    const waiting = new RecordedResponse();
    transport.request(call(5, 'never', 1_000), waiting as unknown as ServerResponse);
    await server.close();
    await waiting.done;
    expect(waiting.status).toBe(503);
    expect(waiting.json).toMatchObject({ id: 5, error: { code: -32603 } });
  });
});
