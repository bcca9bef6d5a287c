import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { ApiEndpoint } from '@tokencircuit/sdk';
import type { AllowCache } from './allow-cache.js';

/**
 * The API sends a comment line every second on an idle feed (CHANGE_FEED_HEARTBEAT_MS): this long without a
 * byte and the connection is taken for lost (one can die without an error), and nothing is reused meanwhile.
 */
const SILENCE_MS = 3_000;
const RETRY_MS = { first: 250, max: 30_000 } as const;

/**
 * One session's GET /v1/preflight/changes (server-sent events), feeding its AllowCache: `watching` makes it
 * live, `changed` drops what it kept, and the end of the stream, an error or a silence drops it too and keeps
 * it from answering until the feed is back (asked again after a growing delay). Opened on demand, once.
 */
export class PreflightChangeFeed {
  private request: ClientRequest | null = null;
  private retryMs: number = RETRY_MS.first;
  private retryTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly backend: ApiEndpoint,
    private readonly run: string,
    private readonly principal: string | null,
    private readonly cache: AllowCache,
    private readonly log: (line: string) => void,
  ) {}

  /** Opens the feed unless it is open, being opened, waiting to retry, or closed. */
  ensureOpen(): void {
    if (this.closed || this.request !== null || this.retryTimer !== null) return;
    const url = new URL('/v1/preflight/changes', `${this.backend.url}/`);
    url.searchParams.set('run', this.run);
    if (this.principal !== null) url.searchParams.set('principal', this.principal);
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      // Its own connection: a stream held open must not take a keep-alive socket preflight reuses.
      agent: false,
      headers: { authorization: `Bearer ${this.backend.apiKey}`, accept: 'text/event-stream' },
    });
    this.request = request;
    let silence: NodeJS.Timeout | null = null;
    const ended = (why: string | null) => {
      if (this.request !== request) return;
      this.request = null;
      if (silence !== null) clearTimeout(silence);
      this.cache.lost();
      request.destroy();
      if (why !== null) this.log(`preflight change feed of run ${this.run}: ${why}; every call asks preflight meanwhile`);
      this.retryLater();
    };
    const heard = () => {
      if (silence !== null) clearTimeout(silence);
      silence = setTimeout(() => ended(`no heartbeat within ${SILENCE_MS} ms`), SILENCE_MS).unref();
    };
    request.on('socket', (socket) => socket.unref());
    request.on('error', (error) => ended(error.message));
    request.on('response', (response: IncomingMessage) => {
      if (response.statusCode !== 200) {
        response.resume();
        ended(`HTTP ${response.statusCode}`);
        return;
      }
      heard();
      response.setEncoding('utf8');
      let pending = '';
      response.on('data', (chunk: string) => {
        heard();
        pending += chunk;
        let end: number;
        while ((end = pending.indexOf('\n\n')) !== -1) {
          this.dispatch(pending.slice(0, end), request);
          pending = pending.slice(end + 2);
        }
      });
      response.on('end', () => ended('the stream ended'));
      response.on('error', (error) => ended(error.message));
      response.on('close', () => ended('the stream closed'));
    });
    request.end();
  }

  private dispatch(block: string, request: ClientRequest): void {
    if (this.request !== request) return;
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (event === 'watching') {
      const coordinates = coordinatesIn(data);
      if (Array.isArray(coordinates) && coordinates.every((c) => typeof c === 'string')) {
        this.retryMs = RETRY_MS.first;
        this.cache.live(coordinates);
      }
    } else if (event === 'changed') {
      this.cache.changed();
    } else if (event === 'lost') {
      this.cache.lost();
    }
  }

  private retryLater(): void {
    if (this.closed) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.ensureOpen();
    }, this.retryMs).unref();
    this.retryMs = Math.min(RETRY_MS.max, this.retryMs * 2);
  }

  close(): void {
    this.closed = true;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const request = this.request;
    this.request = null;
    if (request !== null) {
      this.cache.lost();
      request.destroy();
    }
  }
}

function coordinatesIn(data: string): unknown {
  try {
    return (JSON.parse(data) as { coordinates?: unknown } | null)?.coordinates;
  } catch {
    return undefined;
  }
}
