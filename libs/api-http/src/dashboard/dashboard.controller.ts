import { Controller, Get, HttpCode, Inject, Param, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiDatabase } from '../api-database.port.js';
import { presentedKey } from '../auth/api-keys.js';
import { AuthenticatedTenant } from '../auth/request-tenant.js';
import type { Clock } from '../clock.js';
import { ForbiddenError, NotFoundError } from '../http/api-errors.js';
import { API_DATABASE, CLOCK, DASHBOARD_HUB, DASHBOARD_SESSIONS, GOVERNANCE_POLICY } from '../tokens.js';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import type { DashboardHub } from './dashboard-hub.js';
import { refusedSignIn, type DashboardSessions } from './dashboard-sessions.js';
import { signInRefused } from './sign-in-refused.js';
import { ApiMetrics } from '../api-metrics.js';
import { fleetStore, type FleetNow } from './fleet-store.js';
import { fleetWindowOf } from './fleet-window.js';
import { runTimelineStore, type RunTimeline } from './run-timeline-store.js';
import { sessionIdOf } from './session-cookie.js';
import { EventStreams } from './event-streams.js';

/** The page that exchanges a login token for a session cookie (served outside /v1, see LoginController). */
export const LOGIN_PATH = '/dashboard/login';

/** The dashboard's own reads; the rest of the page uses the audit and resolution routes as they are. */
@Controller('v1/dashboard')
export class DashboardController {
  constructor(
    @Inject(API_DATABASE) private readonly db: ApiDatabase,
    @Inject(CLOCK) private readonly clock: Clock,
    @Inject(DASHBOARD_SESSIONS) private readonly sessions: DashboardSessions,
    @Inject(DASHBOARD_HUB) private readonly hub: DashboardHub,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
    @Inject(GOVERNANCE_POLICY) private readonly policy: TokenCircuitConfig,
    @Inject(EventStreams) private readonly streams: EventStreams,
  ) {}

  /**
   * A one-time login link for `tokencircuit dashboard`. Only an API key may ask: a session minting
   * links could outlive its own expiry forever.
   */
  @Post('login-tokens')
  @HttpCode(201)
  loginToken(@AuthenticatedTenant() tenant: string, @Req() request: FastifyRequest) {
    if (presentedKey(request.headers) === null) {
      throw new ForbiddenError('api_key_required', 'login links are issued to API-key holders only');
    }
    const minted = this.sessions.mintLoginToken(tenant);
    if (refusedSignIn(minted)) throw signInRefused(this.metrics, tenant, minted.retryAfterMs, this.sessions.settings);
    const { token, expiresAt } = minted;
    return { tenant, path: `${LOGIN_PATH}?token=${token}`, expiresAt: expiresAt.toISOString() };
  }

  /** Who the page is signed in as, and the CSRF token its state-changing requests must send. */
  @Get('session')
  session(@AuthenticatedTenant() tenant: string, @Req() request: FastifyRequest) {
    const sessionId = presentedKey(request.headers) === null ? sessionIdOf(request.headers.cookie) : null;
    const session = sessionId === null ? null : this.sessions.touch(sessionId);
    return {
      tenant,
      via: session === null ? 'api_key' : 'session',
      csrfToken: session?.csrfToken ?? null,
      expiresAt: session === null ? null : new Date(session.expiresAt).toISOString(),
    };
  }

  @Get('fleet')
  fleet(@AuthenticatedTenant() tenant: string, @Query() query: unknown): Promise<FleetNow> {
    const now = this.clock();
    const window = fleetWindowOf(query, now);
    return this.db.tenants.read(tenant, (session) => fleetStore.now(session, window, this.policy, now));
  }

  @Get('runs/:run')
  async run(@AuthenticatedTenant() tenant: string, @Param('run') run: string): Promise<RunTimeline> {
    const timeline = await this.db.tenants.read(tenant, (session) => runTimelineStore.timeline(session, run));
    if (!timeline) throw new NotFoundError(`no run ${run}`);
    return timeline;
  }

  /**
   * Server-sent events: one `change` event per new intervention or lifecycle change of the tenant. A stream
   * opened by a session ends (after a `signed_out` event) when that session signs out, is evicted or expires;
   * every stream ends when the API shuts down (the page's EventSource reconnects).
   */
  @Get('live')
  live(@AuthenticatedTenant() tenant: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const sessionId = presentedKey(request.headers) === null ? sessionIdOf(request.headers.cookie) : null;
    const live = () => sessionId === null || this.sessions.isLive(sessionId);
    this.streams.stream(
      request,
      reply,
      (send, end) => {
        const signedOut = () => {
          send('signed_out', { at: this.clock().toISOString() });
          end();
        };
        const unsubscribe = this.hub.subscribe(tenant, (signal) => (live() ? send('change', signal) : signedOut()));
        const unwatch = sessionId === null ? () => {} : this.sessions.onEnd(sessionId, signedOut);
        return () => {
          unsubscribe();
          unwatch();
        };
      },
      { stillLive: live },
    );
  }
}
