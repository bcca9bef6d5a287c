/** The server could not be reached at all (as opposed to refusing a statement). Retriable. */
export class DatabaseUnreachableError extends Error {
  override readonly name = 'DatabaseUnreachableError';
  readonly retriable = true;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'ECONNABORTED',
]);

/** A socket-level failure (refused, reset, unresolvable, timed out): the server, not the statement. */
export function isNetworkFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

/** host:port/database of a connection URL, without credentials, for messages. */
export function describeDatabaseUrl(databaseUrl: string): string {
  const url = parseDatabaseUrl(databaseUrl);
  return `${url.hostname || 'localhost'}:${url.port || '5432'}${url.pathname}`;
}

export function parseDatabaseUrl(databaseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(databaseUrl);
  } catch {
    throw new TypeError('Database URL is not a valid URL; expected postgres://user@host:port/database');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new TypeError(`Database URL must start with postgres:// or postgresql://, got ${url.protocol}//`);
  }
  return url;
}

/**
 * Turns a network-level connection failure into a DatabaseUnreachableError that says where we
 * tried and what to do; any other error is returned unchanged.
 */
export function explainConnectionError(error: unknown, databaseUrl: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  const isTimeout = error instanceof Error && /timeout/i.test(error.message);
  if (isNetworkFailure(error) || isTimeout) {
    const reason = typeof code === 'string' ? code : (error as Error).message;
    return new DatabaseUnreachableError(
      `Cannot reach PostgreSQL at ${describeDatabaseUrl(databaseUrl)} (${reason}). ` +
        'Is the server running? Set DATABASE_URL to point at another server.',
      { cause: error },
    );
  }
  return error;
}
