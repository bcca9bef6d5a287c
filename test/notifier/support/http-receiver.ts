import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly at: number;
}

export interface Reply {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: string;
}

/** How the receiver answers the n-th request (0-based); `hold` leaves it unanswered until released. */
export type Responder = (request: ReceivedRequest, n: number) => Reply | 'hold';

/**
 * A provider stand-in on 127.0.0.1: records every request and answers as the test says. Real HTTP, so
 * the notifier's production sender (fetch, timeouts, Retry-After) is what is tested.
 */
export class HttpReceiver {
  readonly requests: ReceivedRequest[] = [];
  private readonly held: (() => void)[] = [];
  private heldTotal = 0;
  private server: Server | null = null;
  url = '';

  constructor(public respond: Responder = () => ({ status: 200, body: 'ok' })) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const request: ReceivedRequest = {
          method: req.method ?? '',
          path: req.url ?? '',
          headers: req.headers,
          body: Buffer.concat(chunks).toString('utf8'),
          at: Date.now(),
        };
        const n = this.requests.length;
        this.requests.push(request);
        const reply = this.respond(request, n);
        if (reply === 'hold') {
          this.heldTotal += 1;
          this.held.push(() => res.destroy());
          return;
        }
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body ?? '{}');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Requests left unanswered (held) so far. */
  get heldCount(): number {
    return this.heldTotal;
  }

  json<T = Record<string, unknown>>(): T[] {
    return this.requests.map((r) => JSON.parse(r.body) as T);
  }

  async stop(): Promise<void> {
    for (const release of this.held.splice(0)) release();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
