import { z } from 'zod';
import { validatedQuery } from '../http/query-params.js';

const Seq = z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER);

/**
 * Query parameters of GET /v1/audit/verify: the positions of an audit anchor (docs/audit.md), so the report
 * also gives what the trail holds there now, for `tokencircuit verify --anchor` to compare with the signed
 * anchor. Unknown parameters are refused, not ignored.
 */
export const VerifyQuerySchema = z
  .object({
    anchorSeq: Seq.optional().describe(
      'The anchor’s chain seq: the report gives the tenant’s row there (anchorFacts.chainAtAnchor).',
    ),
    eventsThrough: Seq.optional().describe(
      'The anchor’s events.through: the report gives the tenant’s agent events digest through it (anchorFacts.events).',
    ),
  })
  .strict();

export interface VerifyQuery {
  readonly anchorSeq: number | null;
  readonly eventsThrough: number | null;
}

export function parseVerifyQuery(query: unknown): VerifyQuery {
  const q = validatedQuery(VerifyQuerySchema, query);
  return { anchorSeq: q.anchorSeq ?? null, eventsThrough: q.eventsThrough ?? null };
}
