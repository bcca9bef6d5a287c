import { z } from 'zod';
import { InvalidRequestError } from '../http/api-errors.js';
import { validatedQuery } from '../http/query-params.js';

/** Chain rows one verification request hashes at most (≈ 0.1 ms each): one request's cost is bounded. */
export const VERIFY_PAGE_DEFAULT = 1_000;
export const MAX_VERIFY_PAGE = 10_000;

const Seq = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * Query parameters of GET /v1/audit/verify. Verification is paged: each request verifies at most `limit` rows
 * after `cursor` (from the start without one) and answers `next` for the following page, so the cost of one
 * request is bounded and metered (quota/read-cost.ts). Optionally the positions of an audit anchor
 * (docs/audit.md), so the report also gives what the trail holds there now, for `tokencircuit verify --anchor`
 * to compare with the signed anchor. Unknown parameters are refused, not ignored.
 */
export const VerifyQuerySchema = z
  .object({
    cursor: z
      .string()
      .max(256)
      .optional()
      .describe('The `next` of the previous page: verification continues after the row it names, from its hash.'),
    limit: z.coerce
      .number()
      .int()
      .min(1)
      .max(MAX_VERIFY_PAGE)
      .default(VERIFY_PAGE_DEFAULT)
      .describe(`Chain rows to verify in this request (at most ${MAX_VERIFY_PAGE}).`),
    anchorSeq: Seq.optional().describe(
      'The anchor’s chain seq: the report gives the tenant’s row there (anchorFacts.chainAtAnchor).',
    ),
    eventsThrough: Seq.optional().describe(
      'The anchor’s events.through: the report gives the tenant’s agent events digest through it (anchorFacts.events).',
    ),
  })
  .strict();

/** Where a verification page starts: after this row, whose hash the previous page verified. */
export interface VerifyCursor {
  readonly seq: number;
  readonly hash: string;
}

export interface VerifyQuery {
  readonly after: VerifyCursor | null;
  readonly limit: number;
  readonly anchorSeq: number | null;
  readonly eventsThrough: number | null;
}

const FORMAT = /^v1:([1-9][0-9]{0,15}):([0-9a-f]{64})$/;

/** Opaque to clients; carries the hash the previous page ended on, so pages chain without trusting a re-read. */
export function encodeVerifyCursor(cursor: VerifyCursor): string {
  return Buffer.from(`v1:${cursor.seq}:${cursor.hash}`, 'utf8').toString('base64url');
}

export function decodeVerifyCursor(token: string): VerifyCursor {
  const match = /^[A-Za-z0-9_-]{1,200}$/.test(token)
    ? FORMAT.exec(Buffer.from(token, 'base64url').toString('utf8'))
    : null;
  const seq = match ? Number(match[1]) : NaN;
  if (!match || !Number.isSafeInteger(seq)) {
    throw new InvalidRequestError(
      'invalid_cursor',
      'cursor',
      'cursor: not a cursor this API issued; start again without one',
    );
  }
  return { seq, hash: match[2]! };
}

export function parseVerifyQuery(query: unknown): VerifyQuery {
  const q = validatedQuery(VerifyQuerySchema, query);
  return {
    after: q.cursor === undefined ? null : decodeVerifyCursor(q.cursor),
    limit: q.limit,
    anchorSeq: q.anchorSeq ?? null,
    eventsThrough: q.eventsThrough ?? null,
  };
}
