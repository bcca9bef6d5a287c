import { Controller, Get, Inject, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { redactCall } from '@tokencircuit/governance';
import type { ApiDatabase } from '../api-database.port.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import { EventStreams } from '../dashboard/event-streams.js';
import { NotFoundError, UnavailableError } from '../http/api-errors.js';
import { validated } from '../http/validated.js';
import { API_DATABASE } from '../tokens.js';
import { preflightCoordinates } from './candidate-cache.js';

/**
 * How often an idle change feed carries a comment line: a client that hears nothing for a few of these treats
 * the feed as lost (a connection can die without an error) and stops reusing answers.
 */
export const CHANGE_FEED_HEARTBEAT_MS = 1_000;

/** How long a request waits for this process's notifications to be received before it is refused (503). */
const LISTEN_WAIT_MS = 3_000;
const LISTEN_POLL_MS = 50;

const ChangesQuerySchema = z
  .object({
    run: z.string().min(1).max(512),
    principal: z.string().min(1).max(512).optional(),
  })
  .strict();

/**
 * GET /v1/preflight/changes?run=…&principal=…: a server-sent-event stream of the moments failure_state changes at
 * a run's and a principal's coordinates (the authenticated tenant's only), relayed from the notifications this
 * process's candidate cache receives. First `watching` (the coordinate hashes watched, as preflight's `reuse`
 * names them), then `changed` per committed statement that changed any; `lost` and the end of the stream when the
 * notifications stop. A client keeps preflight's reusable answers only while its stream is open (docs/mcp.md).
 */
@Controller('v1/preflight/changes')
export class PreflightChangesController {
  constructor(
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(EventStreams) private readonly streams: EventStreams,
  ) {}

  @Get()
  async changes(
    @AuthenticatedTenant() tenant: string,
    @Query() rawQuery: unknown,
    @Req() request: FastifyRequest,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const query = validated(ChangesQuerySchema, rawQuery);
    const states = this.db.states;
    if (states.watch === undefined) throw new NotFoundError('this API keeps no change feed (embedded database)');
    // Stored keys hold redacted principals: the coordinates are named in the same words preflight reads them by.
    const asked = redactCall({ run: query.run, principal: query.principal ?? null });
    const coordinates = preflightCoordinates(tenant, asked.run, asked.principal);
    // Relayed once the stream is open; watch and open happen in one turn, so nothing falls between them.
    let relay = { changed: () => {}, lost: () => {} };
    const watch = () =>
      states.watch!(
        coordinates,
        () => relay.changed(),
        () => relay.lost(),
      );
    let detach = watch();
    // The first request of a process starts its LISTEN connection: it is given a moment to be established.
    for (let waited = 0; detach === null && waited < LISTEN_WAIT_MS; waited += LISTEN_POLL_MS) {
      await new Promise((resolve) => setTimeout(resolve, LISTEN_POLL_MS));
      detach = watch();
    }
    if (detach === null) {
      throw new UnavailableError('change_feed_not_live', 'failure_state notifications are not received yet; retry');
    }
    const unwatch = detach;
    if (request.raw.destroyed) {
      unwatch();
      return;
    }
    this.streams.stream(
      request,
      reply,
      (send, end) => {
        const lost = () => {
          send('lost', {});
          end();
        };
        relay = { changed: () => send('changed', {}), lost };
        send('watching', { coordinates });
        return unwatch;
      },
      // Shutting down: the feed is told `lost` (its client asks preflight until it reaches another replica).
      { heartbeatMs: CHANGE_FEED_HEARTBEAT_MS, onShutdown: (send) => send('lost', {}) },
    );
  }
}
