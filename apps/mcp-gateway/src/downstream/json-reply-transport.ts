import type { ServerResponse } from 'node:http';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, JSONRPCRequest, RequestId } from '@modelcontextprotocol/sdk/types.js';

interface Waiting {
  readonly res: ServerResponse;
  readonly id: RequestId;
}

/**
 * A session's MCP server answering stateless Streamable HTTP POSTs with plain JSON bodies (the SDK transport's
 * enableJsonResponse mode) on node's own request and response objects: one server per session for as long
 * as the session is cached, instead of a server, a transport and a web Request/Response pair per POST.
 *
 * Concurrent POSTs of one session may reuse JSON-RPC ids (different clients, one API key and run): each
 * request gets an id of this transport's own on the way in and its own id back on the way out. Messages the
 * server sends that answer no waiting request (notifications, requests to the client) have no stream to go
 * to in this mode and are dropped, as the SDK's JSON response mode drops them.
 */
export class JsonReplyTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly waiting = new Map<number, Waiting>();
  private next = 0;
  private closed = false;

  async start(): Promise<void> {}

  /** Hands one request to the server; its response is written to `res` (200, application/json). */
  request(message: JSONRPCRequest, res: ServerResponse): void {
    const own = ++this.next;
    this.waiting.set(own, { res, id: message.id });
    // A client that hangs up stops nothing: the governed call runs to its outcome, only the answer is lost.
    res.once('close', () => this.waiting.delete(own));
    this.onmessage?.({ ...message, id: own });
  }

  /** Hands a notification (or a client's response) to the server: nothing to answer but 202. */
  deliver(message: JSONRPCMessage): void {
    this.onmessage?.(message);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('id' in message) || 'method' in message || typeof message.id !== 'number') return;
    const waiting = this.waiting.get(message.id);
    if (waiting === undefined) return;
    this.waiting.delete(message.id);
    if (!waiting.res.writableEnded) replyJson(waiting.res, 200, { ...message, id: waiting.id });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const { res, id } of this.waiting.values())
      if (!res.headersSent)
        replyJson(res, 503, {
          jsonrpc: '2.0',
          error: { code: -32603, message: 'the gateway closed this session' },
          id,
        });
    this.waiting.clear();
    this.onclose?.();
  }
}

function replyJson(res: ServerResponse, status: number, message: unknown): void {
  const body = JSON.stringify(message);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
}
