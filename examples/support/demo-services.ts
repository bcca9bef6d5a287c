import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The services the example agents' tools call, running on localhost so the examples need nothing
 * else: a finance API that refuses the reporting service account on salaries (403, the RFC's
 * permission case), an invoicing API whose POST can be made to hang (the RFC's unknown-effect
 * case), and a weather API that answers. Replace them with your own services.
 */
export class DemoServices {
  /** Requests that reached the services, as "METHOD /path". */
  readonly requests: string[] = [];
  /** Invoices the invoicing API created. */
  readonly invoices: Array<{ id: string; customer: string; amount: number }> = [];
  /** The next POST /invoices arrives but is never answered (a slow upstream), and creates nothing. */
  hangNextInvoice = false;
  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(): Promise<DemoServices> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const services = new DemoServices(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    server.on('request', (request: IncomingMessage, response: ServerResponse) => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      services.requests.push(`${request.method} ${url.pathname}`);
      if (url.pathname === '/reports/salaries') {
        response.writeHead(403, {
          'content-type': 'application/json',
          'www-authenticate': 'Bearer error="insufficient_scope", scope="finance:read"',
        });
        response.end(JSON.stringify({ error: 'svc-reporting may not read salaries' }));
        return;
      }
      if (url.pathname === '/invoices' && request.method === 'POST') {
        const chunks: Buffer[] = [];
        request.on('data', (chunk: Buffer) => chunks.push(chunk));
        request.on('end', () => {
          if (services.hangNextInvoice) {
            services.hangNextInvoice = false;
            return;
          }
          const { customer, amount } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            customer: string;
            amount: number;
          };
          const invoice = { id: `inv-${services.invoices.length + 1}`, customer, amount };
          services.invoices.push(invoice);
          response.writeHead(201, { 'content-type': 'application/json' });
          response.end(JSON.stringify(invoice));
        });
        return;
      }
      if (url.pathname === '/invoices') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(services.invoices.filter((i) => i.customer === url.searchParams.get('customer'))));
        return;
      }
      if (url.pathname === '/weather') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ city: url.searchParams.get('city'), tempC: 7, sky: 'overcast' }));
        return;
      }
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: 'not found' }));
    });
    return services;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** POST JSON with a 1 s timeout; a non-2xx Response is thrown as is. */
export async function postJson(url: string, body: unknown): Promise<unknown> {
  const response = await fetch(url, {
    method: 'POST',
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(1_000),
  });
  if (!response.ok) throw response;
  return response.json();
}

/** GET a JSON resource; a non-2xx Response is thrown as is, so its status and headers reach TokenCircuit. */
export async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(10_000) });
  if (!response.ok) throw response;
  return response.json();
}
