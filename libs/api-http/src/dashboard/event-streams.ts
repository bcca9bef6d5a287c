import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEARTBEAT_MS, openEventStream } from './event-stream.js';

type Send = (event: string, data: unknown) => void;

export interface EventStreamOptions {
  /** Asked at every heartbeat; false ends the stream (see openEventStream). */
  readonly stillLive?: () => boolean;
  readonly heartbeatMs?: number;
  /** What the stream says before the server ends it on shutdown (nothing by default). */
  readonly onShutdown?: (send: Send) => void;
}

/**
 * The API's open server-sent event streams. An open response keeps the HTTP server from closing, so shutting
 * down waited for every client to hang up (a dashboard tab: forever); on module destroy, before the server
 * closes, each open stream says its last words and is ended. Clients reconnect after the stream's `retry`.
 */
@Injectable()
export class EventStreams implements OnModuleDestroy {
  private readonly open = new Set<() => void>();

  /** openEventStream, ended by the server on shutdown. */
  stream(
    request: FastifyRequest,
    reply: FastifyReply,
    attach: (send: Send, end: () => void) => () => void,
    options: EventStreamOptions = {},
  ): void {
    openEventStream(
      request,
      reply,
      (send, end) => {
        const shutDown = () => {
          options.onShutdown?.(send);
          end();
        };
        this.open.add(shutDown);
        const detach = attach(send, end);
        return () => {
          this.open.delete(shutDown);
          detach();
        };
      },
      options.stillLive,
      options.heartbeatMs ?? HEARTBEAT_MS,
    );
  }

  onModuleDestroy(): void {
    for (const shutDown of [...this.open]) shutDown();
  }
}
