import { InvalidRequestError } from '../http/api-errors.js';

export type SortOrder = 'asc' | 'desc';

/** Where the next page starts: after `seq` in `order`. Opaque to clients; versioned so it can change. */
export interface AuditCursor {
  readonly seq: number;
  readonly order: SortOrder;
}

const FORMAT = /^v1:(asc|desc):([1-9][0-9]{0,15})$/;

export function encodeCursor(cursor: AuditCursor): string {
  return Buffer.from(`v1:${cursor.order}:${cursor.seq}`, 'utf8').toString('base64url');
}

/** Decodes a cursor this API issued; anything else (edited, truncated, another order) is a 400. */
export function decodeCursor(token: string, order: SortOrder): AuditCursor {
  const match = /^[A-Za-z0-9_-]{1,64}$/.test(token)
    ? FORMAT.exec(Buffer.from(token, 'base64url').toString('utf8'))
    : null;
  const seq = match ? Number(match[2]) : NaN;
  if (!match || !Number.isSafeInteger(seq)) {
    throw new InvalidRequestError(
      'invalid_cursor',
      'cursor',
      'cursor: not a cursor this API issued; start again without one',
    );
  }
  if (match[1] !== order) {
    throw new InvalidRequestError(
      'invalid_cursor',
      'cursor',
      `cursor: it continues a listing in ${match[1]} order, not ${order}`,
    );
  }
  return { seq, order };
}
