import { describeDatabaseUrl, parseDatabaseUrl } from './connection-errors.js';
import { sqlStateOf } from './failure-kind.js';

/**
 * Why a service cannot use its database at start, one kind per thing to fix:
 * - `authentication`: the server refused the password (or got none when it asked for one);
 * - `missing_role`: the user in DATABASE_URL is not a role on that server;
 * - `missing_database`: no database of that name (services never create one: `npm run migrate` does);
 * - `not_migrated`: the database is behind the migrations of this build (`npm run migrate`);
 * - `tls`: TLS was asked for and refused, required and not used, or its certificate not trusted;
 * - `refused`: any other login refusal (pg_hba.conf has no entry, CONNECT privilege revoked, …).
 */
export type DatabaseStartProblem =
  'authentication' | 'missing_role' | 'missing_database' | 'not_migrated' | 'tls' | 'refused';

/** A database a service cannot start on: one line for the person (the message), never retried at start. */
export class DatabaseStartError extends Error {
  override readonly name = 'DatabaseStartError';
  constructor(
    readonly problem: DatabaseStartProblem,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

// Node's TLS verification codes (tls.TLSSocket#authorizationError, https://nodejs.org/api/tls.html) that
// reach a pg client when the server's certificate is not trusted under sslmode=verify-ca / verify-full.
const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * The login refusal `error` is, told as one line naming what to fix, or null when it is none (an
 * unreachable server, a statement's error: explainConnectionError and the caller's business).
 * SQLSTATEs from https://www.postgresql.org/docs/current/errcodes-appendix.html: 28P01 invalid_password,
 * 28000 invalid_authorization_specification (no such role, or no pg_hba.conf entry), 3D000
 * invalid_catalog_name (no such database), 42501 insufficient_privilege (no CONNECT on the database).
 */
export function databaseRefusalOf(error: unknown, databaseUrl: string): DatabaseStartError | null {
  if (error instanceof DatabaseStartError) return error;
  if (error === null || typeof error !== 'object') return null;
  const url = parseDatabaseUrl(databaseUrl);
  const where = describeDatabaseUrl(databaseUrl);
  const server = `${url.hostname || 'localhost'}:${url.port || '5432'}`;
  const user = decodeURIComponent(url.username) || '(the default user)';
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  const state = sqlStateOf(error);
  const refusal = (problem: DatabaseStartProblem, line: string) =>
    new DatabaseStartError(problem, line, { cause: error });

  if (state === '3D000') {
    return refusal(
      'missing_database',
      `database "${database}" does not exist on ${server}: services never create one; check DATABASE_URL, or create and migrate it with "npm run migrate"`,
    );
  }
  if (state === '28P01' || /client password must be a string|password authentication failed/i.test(message)) {
    return refusal(
      'authentication',
      `PostgreSQL at ${where} refused the password of user "${user}" (${message}): check the password in DATABASE_URL`,
    );
  }
  if (/does not support SSL/i.test(message)) {
    return refusal(
      'tls',
      `PostgreSQL at ${where} does not support SSL connections: drop sslmode from DATABASE_URL, or enable ssl on the server`,
    );
  }
  if (typeof code === 'string' && CERTIFICATE_CODES.has(code)) {
    return refusal(
      'tls',
      `the TLS certificate of PostgreSQL at ${where} is not trusted (${code}: ${message}): set sslrootcert in DATABASE_URL to its CA, or fix the server's certificate`,
    );
  }
  if (state === '28000' && /role .* does not exist/i.test(message)) {
    return refusal(
      'missing_role',
      `role "${user}" does not exist on ${server}: check the user in DATABASE_URL (the services' roles are created by "npm run migrate", docs/security.md)`,
    );
  }
  if (state === '28000' && /no encryption/i.test(message)) {
    return refusal(
      'tls',
      `PostgreSQL at ${where} requires TLS for user "${user}" (${message}): add sslmode=require (or verify-full) to DATABASE_URL`,
    );
  }
  if (state === '28000' || (state === '42501' && /permission denied for database/i.test(message))) {
    return refusal(
      'refused',
      `PostgreSQL at ${where} refused user "${user}" (${message}): check DATABASE_URL and the server's pg_hba.conf and grants`,
    );
  }
  return null;
}
