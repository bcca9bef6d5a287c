import { InvalidRequestError } from '../http/api-errors.js';

/**
 * Where the next page of GET /v1/state starts: after (updatedAt, keyId) in descending order. updatedAt
 * travels as whole microseconds since the epoch, Postgres's own precision, so no row is skipped or
 * repeated by a rounding of the timestamp. Opaque to clients; versioned so it can change.
 */
export interface StateCursor {
  readonly updatedMicros: string;
  readonly keyId: string;
}

const FORMAT = /^v1\n(-?[0-9]{1,17})\n([^\n]{1,2048})$/s;
export const MAX_STATE_CURSOR_CHARS = 4096;

export function encodeStateCursor(cursor: StateCursor): string {
  return Buffer.from(`v1\n${cursor.updatedMicros}\n${cursor.keyId}`, 'utf8').toString('base64url');
}

/** Decodes a cursor this API issued; anything else is a 400. A forged one only moves the start, under RLS. */
export function decodeStateCursor(token: string): StateCursor {
  const match = /^[A-Za-z0-9_-]+$/.test(token) ? FORMAT.exec(Buffer.from(token, 'base64url').toString('utf8')) : null;
  if (!match) {
    throw new InvalidRequestError(
      'invalid_cursor',
      'cursor',
      'cursor: not a cursor this API issued; start again without one',
    );
  }
  return { updatedMicros: match[1]!, keyId: match[2]! };
}
