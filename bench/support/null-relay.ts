/**
 * A do-nothing HTTP relay in a process of its own: every request is forwarded as it came (method, path, headers,
 * body streamed through) over a kept-alive connection to one target, and the answer streamed back. No parsing,
 * no governance, no events. bench:mcp puts it beside the gateway to show what any separate process between a
 * client and an HTTP upstream costs on this machine: a floor no gateway written as its own process can go under.
 *
 *   tsx bench/support/null-relay.ts http://127.0.0.1:41234/mcp     (prints its own URL, same path)
 */
import { createServer, request, Agent, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

// Hop-by-hop headers (RFC 9110 §7.6.1) belong to one connection and are not forwarded.
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade']);

function forwardable(headers: IncomingHttpHeaders, host?: string): IncomingHttpHeaders {
  const out: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_BY_HOP.has(name)) out[name] = value;
  if (host !== undefined) out.host = host;
  return out;
}

const given = process.argv[2];
if (given === undefined) throw new Error('usage: null-relay.ts TARGET_URL');
const target = new URL(given);
const agent = new Agent({ keepAlive: true, maxSockets: 512 });

const server = createServer((incoming, outgoing) => {
  const forwarded = request(
    {
      host: target.hostname,
      port: target.port,
      path: incoming.url,
      method: incoming.method,
      headers: forwardable(incoming.headers, target.host),
      agent,
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
      answer.pipe(outgoing);
    },
  );
  forwarded.on('error', (error) => {
    if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
    outgoing.end(`relay: ${error.message}`);
  });
  incoming.pipe(forwarded);
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`http://127.0.0.1:${port}${target.pathname}\n`);
});
process.on('SIGTERM', () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
