import { isNetworkFailure } from './connection-errors.js';

/**
 * Who a failed write is about. `record`: something in the data (Postgres refused a value, a constraint, a
 * stack or program limit, a JavaScript error while handling it); the same input fails the same way, so it
 * must be set aside, not retried. `infrastructure`: the database, the network or the deployment (server
 * unreachable, shutting down, out of resources, a lock or serialization conflict, a missing table or
 * privilege); every record would fail alike, so the whole unit of work is retried and nothing is parked.
 *
 * SQLSTATE classes (https://www.postgresql.org/docs/current/errcodes-appendix.html) a record can cause:
 * 22 data exception, 23 integrity constraint violation, 54 program limit exceeded (stack depth, statement
 * too complex), P0 PL/pgSQL (RAISE, ASSERT, STRICT INTO: function code judging the values it was given, e.g.
 * a trigger refusing the row). Every other class is the deployment's (08 connection, 40 serialization or
 * deadlock, 42 missing object or privilege, 53 resources, 57 operator intervention, ...).
 *
 * The one rule for every writer that sets records aside: the projector's poison isolation and the decision
 * relay's parked outbox rows. A second rule drifted once (the relay retried P0 and JavaScript errors
 * forever, holding the outbox); do not add another.
 */
export type FailureKind = 'record' | 'infrastructure';

const RECORD_SQLSTATE_CLASSES = new Set(['22', '23', '54', 'P0']);

/** Messages node-postgres and its pool raise, without a code, when the connection (not the row) failed. */
const CONNECTION_MESSAGES =
  /connection terminated|connection timeout|timeout exceeded when trying to connect|client has encountered a connection error|client was closed|cannot use a pool after calling end|not queryable|socket hang up|terminating connection/i;

/** The SQLSTATE of an error Postgres itself raised (five characters), or null for any other error. */
export function sqlStateOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

export function failureKind(error: unknown): FailureKind {
  if (error === null || typeof error !== 'object') return 'record';
  if ((error as { retriable?: unknown }).retriable === true) return 'infrastructure';
  if (isNetworkFailure(error)) return 'infrastructure';
  const code = sqlStateOf(error);
  if (code !== null) return RECORD_SQLSTATE_CLASSES.has(code.slice(0, 2)) ? 'record' : 'infrastructure';
  if (error instanceof Error && CONNECTION_MESSAGES.test(error.message)) return 'infrastructure';
  const cause = (error as { cause?: unknown }).cause;
  if (cause !== undefined && cause !== error && failureKind(cause) === 'infrastructure') return 'infrastructure';
  return 'record';
}
