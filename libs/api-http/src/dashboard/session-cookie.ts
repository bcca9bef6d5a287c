import { parse, serialize } from 'cookie';
import type { FastifyRequest } from 'fastify';

/** The dashboard session cookie: HttpOnly (no script reads it), SameSite=Strict (no cross-site request carries it). */
export const SESSION_COOKIE = 'tc_session';

/** The session id the request's Cookie header carries, or null. */
export function sessionIdOf(cookieHeader: string | undefined): string | null {
  if (cookieHeader === undefined) return null;
  const value = parse(cookieHeader)[SESSION_COOKIE];
  return value !== undefined && /^[A-Za-z0-9_-]{20,128}$/.test(value) ? value : null;
}

/** Secure when the request came over TLS, directly or (per X-Forwarded-Proto) through a proxy. */
function isHttps(request: FastifyRequest): boolean {
  const forwarded = request.headers['x-forwarded-proto'];
  return request.protocol === 'https' || (typeof forwarded === 'string' && forwarded.split(',')[0]?.trim() === 'https');
}

export function sessionCookie(request: FastifyRequest, sessionId: string, maxAgeSeconds: number): string {
  return serialize(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: isHttps(request),
    maxAge: maxAgeSeconds,
  });
}

export function clearedSessionCookie(request: FastifyRequest): string {
  return serialize(SESSION_COOKIE, '', {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure: isHttps(request),
    maxAge: 0,
  });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether a request can change state, and so needs the CSRF proof when a cookie authenticates it. */
export const changesState = (method: string): boolean => !SAFE_METHODS.has(method.toUpperCase());

/**
 * A browser names the page that sent a request in Origin (RFC 6454: scheme, host and port): it must be this
 * server, scheme included, so a page served over plain http cannot act on the https dashboard of the same
 * host (or the reverse). The request's scheme is TLS directly or X-Forwarded-Proto from a proxy (a browser
 * cannot set that header cross-site without a CORS preflight, which this API never grants). Absent Origin
 * (old browsers on same-origin GETs, non-browser clients) is judged by the CSRF token alone.
 */
export function originMatchesRequest(request: FastifyRequest): boolean {
  const { origin, host } = request.headers;
  if (origin === undefined) return true;
  if (host === undefined) return false;
  try {
    const url = new URL(origin);
    return url.protocol === (isHttps(request) ? 'https:' : 'http:') && url.host === host;
  } catch {
    return false;
  }
}
