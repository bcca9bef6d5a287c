import { z } from 'zod';
import { DecisionLevelSchema, FailureClassSchema, StorableTimestamp } from '@tokencircuit/contracts';
import type { InterventionFilter } from '@tokencircuit/storage';
import { InvalidRequestError } from '../http/api-errors.js';
import { validatedQuery } from '../http/query-params.js';
import { decodeCursor, type AuditCursor, type SortOrder } from './audit-cursor.js';

export const MAX_AUDIT_PAGE = 500;

const Text = z.string().min(1).max(1024);

/** Query parameters of GET /v1/audit/interventions; unknown parameters are refused, not ignored. */
export const AuditQuerySchema = z
  .object({
    // Compared with a timestamptz column: an instant Postgres cannot hold (year 0000, offset +23:59) is the
    // client's 400, not the database's error.
    from: StorableTimestamp.optional().describe('Issued at or after this instant (ISO 8601).'),
    to: StorableTimestamp.optional().describe('Issued before this instant (ISO 8601).'),
    class: FailureClassSchema.optional().describe('Failure class.'),
    level: DecisionLevelSchema.optional(),
    tool: Text.optional().describe('Tool name.'),
    principal: Text.optional(),
    run: Text.optional(),
    order: z.enum(['asc', 'desc']).default('desc').describe('By audit-trail sequence: desc = newest first.'),
    cursor: z.string().max(128).optional().describe('nextCursor of the previous page.'),
    limit: z.coerce.number().int().min(1).max(MAX_AUDIT_PAGE).default(100),
    format: z.enum(['json', 'csv']).default('json'),
  })
  .strict();

/** The filters of a page: storage's, so the query passes to readAuditPage as parsed. */
export type AuditFilter = InterventionFilter;

export interface AuditQuery {
  readonly filter: AuditFilter;
  readonly order: SortOrder;
  readonly after: AuditCursor | null;
  readonly limit: number;
  readonly format: 'json' | 'csv';
}

/** Validates the query string; the first problem becomes a 400 naming the parameter. */
export function parseAuditQuery(query: unknown): AuditQuery {
  const q = validatedQuery(AuditQuerySchema, query);
  if (q.from && q.to && Date.parse(q.from) >= Date.parse(q.to)) {
    throw new InvalidRequestError('invalid_query', 'to', 'to: must be later than from');
  }
  return {
    filter: {
      from: q.from ?? null,
      to: q.to ?? null,
      failureClass: q.class ?? null,
      level: q.level ?? null,
      tool: q.tool ?? null,
      principal: q.principal ?? null,
      run: q.run ?? null,
    },
    order: q.order,
    after: q.cursor === undefined ? null : decodeCursor(q.cursor, q.order),
    limit: q.limit,
    format: q.format,
  };
}
