import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

/** What one API request answered: its status and body text. */
export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
}

// Connections to the API are kept open and reused: a governed call makes a request per call (preflight)
// and its events follow in batches, so a new connection (or fetch's per-request stream machinery, about
// half a millisecond of CPU here) per request would be most of what governance adds to a call.
const agents = {
  'http:': new HttpAgent({ keepAlive: true, keepAliveMsecs: 10_000 }),
  'https:': new HttpsAgent({ keepAlive: true, keepAliveMsecs: 10_000 }),
};

/**
 * One JSON request over Node's http/https with a keep-alive agent. Rejects on a connection failure or
 * when no complete answer arrived within `timeoutMs` (the error's message says which).
 */
export function requestJson(
  method: string,
  url: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const target = new URL(url);
    const secure = target.protocol === 'https:';
    const request = (secure ? httpsRequest : httpRequest)(
      target,
      {
        method,
        agent: agents[secure ? 'https:' : 'http:'],
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          clearTimeout(timer);
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    const timer = setTimeout(() => request.destroy(new Error(`no complete answer within ${timeoutMs} ms`)), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
