import { Body, Controller, Get, HttpCode, Inject, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { ApiKeyRing } from '../auth/api-keys.js';
import { ForbiddenError, UnauthenticatedError } from '../http/api-errors.js';
import { validated } from '../http/validated.js';
import { API_KEY_RING, DASHBOARD_SESSIONS } from '../tokens.js';
import { CSRF_HEADER } from '../auth/api-key.hook.js';
import { csrfTokenMatches, refusedSignIn, type DashboardSessions } from './dashboard-sessions.js';
import { signInRefused } from './sign-in-refused.js';
import { ApiMetrics } from '../api-metrics.js';
import { clearedSessionCookie, originMatchesRequest, sessionCookie, sessionIdOf } from './session-cookie.js';

export const DASHBOARD_HOME = '/dashboard/';

const SignInSchema = z.object({ apiKey: z.string().min(1).max(1024) }).strict();
const LoginQuerySchema = z.object({ token: z.string().max(128).optional() }).strict();

/**
 * Sign-in and sign-out of the dashboard: outside /v1 because they create or end the session that
 * /v1 then accepts. The API key and the login token never appear in a URL after sign-in.
 */
@Controller('dashboard')
export class LoginController {
  constructor(
    @Inject(DASHBOARD_SESSIONS) private readonly sessions: DashboardSessions,
    @Inject(API_KEY_RING) private readonly keys: ApiKeyRing,
    @Inject(ApiMetrics) private readonly metrics: ApiMetrics,
  ) {}

  /** The printed one-time link: sets the session cookie and moves the browser to a URL without the token. */
  @Get('login')
  login(@Query() query: unknown, @Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const parsed = LoginQuerySchema.safeParse(query ?? {});
    const token = parsed.success ? parsed.data.token : undefined;
    const opened = token === undefined ? null : this.sessions.redeemLoginToken(token);
    void reply
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('location', opened === null ? `${DASHBOARD_HOME}?signin=expired` : DASHBOARD_HOME);
    if (opened !== null) {
      reply.header('set-cookie', sessionCookie(request, opened.sessionId, this.maxAgeSeconds()));
    }
    void reply.status(303).send();
  }

  /** The sign-in form: an API key in the body (never the URL) buys a session cookie. */
  @Post('session')
  @HttpCode(200)
  signIn(@Body() body: unknown, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    this.requireSameOrigin(request);
    const { apiKey } = validated(SignInSchema, body);
    const tenant = this.keys.tenantOf(apiKey);
    if (tenant === null) throw new UnauthenticatedError('unknown API key');
    const opened = this.sessions.signIn(tenant);
    if (refusedSignIn(opened)) throw signInRefused(this.metrics, tenant, opened.retryAfterMs, this.sessions.settings);
    const { sessionId, session } = opened;
    reply.header('set-cookie', sessionCookie(request, sessionId, this.maxAgeSeconds()));
    reply.header('cache-control', 'no-store');
    return { tenant, csrfToken: session.csrfToken, expiresAt: new Date(session.expiresAt).toISOString() };
  }

  @Post('logout')
  @HttpCode(204)
  signOut(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): void {
    this.requireSameOrigin(request);
    const sessionId = sessionIdOf(request.headers.cookie);
    const session = sessionId === null ? null : this.sessions.touch(sessionId);
    if (session !== null) {
      const header = request.headers[CSRF_HEADER];
      if (!csrfTokenMatches(session.csrfToken, Array.isArray(header) ? header[0] : header)) {
        throw new ForbiddenError('csrf_failed', `signing out needs the ${CSRF_HEADER} header`);
      }
      this.sessions.close(sessionId!);
    }
    reply.header('set-cookie', clearedSessionCookie(request));
  }

  private requireSameOrigin(request: FastifyRequest): void {
    if (!originMatchesRequest(request)) {
      throw new ForbiddenError('csrf_failed', 'the request comes from another origin than this dashboard');
    }
  }

  private maxAgeSeconds(): number {
    return Math.floor(this.sessions.settings.absoluteTtlMs / 1000);
  }
}
