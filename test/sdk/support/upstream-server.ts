import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly authorization: string | null;
}

export type Reply = (request: ReceivedRequest, response: ServerResponse) => void;

/**
 * A real HTTP service the agent's tools call (a finance API, an invoicing API): it records every request
 * that reached it and answers with `reply`, which a test may swap. A reply that never ends the response
 * is how "timed out after dispatch" happens in the wild.
 */
export class UpstreamServer {
  readonly received: ReceivedRequest[] = [];
  private constructor(
    private readonly server: Server,
    readonly url: string,
    public reply: Reply,
  ) {}

  static async start(reply: Reply): Promise<UpstreamServer> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const upstream = new UpstreamServer(server, `http://127.0.0.1:${port}`, reply);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const received: ReceivedRequest = {
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          body: Buffer.concat(chunks).toString('utf8'),
          authorization: request.headers.authorization ?? null,
        };
        upstream.received.push(received);
        upstream.reply(received, response);
      });
    });
    return upstream;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Never answers: the request arrived, the client will time out waiting for the headers. */
export const neverAnswer: Reply = () => undefined;

export const json =
  (status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
