import type { onRequestHookHandler } from 'fastify';
import { csrfTokenMatches, type DashboardSessions } from '../dashboard/dashboard-sessions.js';
import { changesState, originMatchesRequest, sessionIdOf } from '../dashboard/session-cookie.js';
import { ForbiddenError, UnauthenticatedError } from '../http/api-errors.js';
import { presentedKey, type ApiKeyRing } from './api-keys.js';
import { setRequestTenant } from './request-tenant.js';

/** The header a cookie-authenticated state-changing request must carry (the session's CSRF token). */
export const CSRF_HEADER = 'x-csrf-token';

/**
 * Resolves the caller's tenant in Fastify's onRequest phase, before the body is read or parsed: an
 * unauthenticated request never costs a parse. Synchronous (no promise per request). An API key in
 * a header wins; without one, a dashboard session cookie authenticates, and then every request that
 * can change state must come from this origin and echo the session's CSRF token (SameSite=Strict
 * already keeps the cookie off cross-site requests; the token also covers same-site subdomains).
 */
export function apiKeyHook(keys: ApiKeyRing, sessions: DashboardSessions): onRequestHookHandler {
  return function resolveTenant(request, _reply, done) {
    const key = presentedKey(request.headers);
    if (key === null) {
      const sessionId = sessionIdOf(request.headers.cookie);
      const session = sessionId === null ? null : sessions.touch(sessionId);
      if (session === null) {
        done(
          new UnauthenticatedError(
            sessionId === null
              ? 'an API key is required: Authorization: Bearer <key> or x-api-key: <key>'
              : 'the dashboard session has expired: sign in again',
          ),
        );
        return;
      }
      if (changesState(request.method)) {
        const header = request.headers[CSRF_HEADER];
        const presented = Array.isArray(header) ? header[0] : header;
        if (!originMatchesRequest(request)) {
          done(new ForbiddenError('csrf_failed', 'the request comes from another origin than this dashboard'));
          return;
        }
        if (!csrfTokenMatches(session.csrfToken, presented)) {
          done(
            new ForbiddenError('csrf_failed', `a signed-in request that changes state needs the ${CSRF_HEADER} header`),
          );
          return;
        }
      }
      setRequestTenant(request, session.tenant);
      done();
      return;
    }
    const tenant = keys.tenantOf(key);
    if (tenant === null) {
      done(new UnauthenticatedError('unknown API key'));
      return;
    }
    setRequestTenant(request, tenant);
    done();
  };
}
