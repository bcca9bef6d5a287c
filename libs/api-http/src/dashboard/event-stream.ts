import type { FastifyReply, FastifyRequest } from 'fastify';

/** Comment lines keep proxies and the browser from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;

type Send = (event: string, data: unknown) => void;

/**
 * Turns the reply into a text/event-stream (WHATWG server-sent events). `attach` subscribes and
 * returns its unsubscribe, called when the stream ends: the client went away, or `end` was called
 * (the server ends it, e.g. its session signed out). `stillLive`, asked at every heartbeat, ends the
 * stream when false, so an expiry nobody else notices ends it within one heartbeat (`heartbeatMs`, by default
 * HEARTBEAT_MS; a client that must notice a silently lost stream sooner asks for a shorter one).
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  attach: (send: Send, end: () => void) => () => void,
  stillLive: () => boolean = () => true,
  heartbeatMs: number = HEARTBEAT_MS,
): void {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  // The browser reconnects after this many ms if the stream drops.
  raw.write('retry: 2000\n\n');
  let closed = false;
  const send: Send = (event, data) => {
    if (closed) return;
    raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  let detach: () => void = () => {};
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    detach();
    raw.end();
  };
  const heartbeat = setInterval(() => {
    if (closed) return;
    if (!stillLive()) {
      send('signed_out', { at: new Date().toISOString() });
      close();
      return;
    }
    raw.write(': keep-alive\n\n');
  }, heartbeatMs);
  heartbeat.unref();
  detach = attach(send, close);
  if (closed) {
    detach();
    return;
  }
  send('ready', { at: new Date().toISOString() });
  request.raw.on('close', close);
  raw.on('error', close);
}
