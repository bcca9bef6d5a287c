import type { FastifyReply, FastifyRequest } from 'fastify';

/** Comment lines keep proxies and the browser from closing an idle stream. */
export const HEARTBEAT_MS = 15_000;

type Send = (event: string, data: unknown) => void;

/**
 * Turns the reply into a text/event-stream (WHATWG server-sent events). `attach` subscribes and
 * returns its unsubscribe, called when the client goes away.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  attach: (send: Send) => () => void,
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
  const detach = attach(send);
  const heartbeat = setInterval(() => {
    if (!closed) raw.write(': keep-alive\n\n');
  }, HEARTBEAT_MS);
  heartbeat.unref();
  send('ready', { at: new Date().toISOString() });
  const close = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    detach();
    raw.end();
  };
  request.raw.on('close', close);
  raw.on('error', close);
}
