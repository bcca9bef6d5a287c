import { z } from 'zod';
import { FailureClassSchema } from '@tokencircuit/contracts';
import { BLOCKING_STATUSES, type FailureStateFilter } from '@tokencircuit/storage';
import { validatedQuery } from '../http/query-params.js';
import { decodeStateCursor, MAX_STATE_CURSOR_CHARS, type StateCursor } from './state-cursor.js';

export const MAX_STATE_PAGE = 500;

// Storage's: the statuses in which the key's next attempt is refused until an operator or a verifier acts.
export { BLOCKING_STATUSES };
export const FAILURE_STATUSES = ['open', ...BLOCKING_STATUSES, 'resolved'] as const;

const Text = z.string().min(1).max(1024);

/** Query parameters of GET /v1/state; unknown parameters are refused, not ignored. */
export const StateQuerySchema = z
  .object({
    blocked: z
      .enum(['true', 'false'])
      .optional()
      .describe(
        'true: only keys whose next attempt is refused now (status blocked, exhausted or awaiting_verification); ' +
          'false: only the others (open, resolved).',
      ),
    status: z.enum(FAILURE_STATUSES).optional().describe('Exactly this status.'),
    principal: Text.optional(),
    tool: Text.optional().describe('Tool name.'),
    class: FailureClassSchema.optional().describe('Failure class.'),
    scope: z.enum(['fleet', 'run']).optional().describe('fleet: keyed by principal and resource; run: by run.'),
    run: Text.optional(),
    cursor: z.string().max(MAX_STATE_CURSOR_CHARS).optional().describe('nextCursor of the previous page.'),
    limit: z.coerce.number().int().min(1).max(MAX_STATE_PAGE).default(100),
  })
  .strict();

/** The filters of a listing: storage's, so the query passes to listFailureStates as parsed. */
export type StateFilter = FailureStateFilter;

export interface StateQuery {
  readonly filter: StateFilter;
  readonly after: StateCursor | null;
  readonly limit: number;
}

/** Validates the query string; the first problem becomes a 400 naming the parameter. */
export function parseStateQuery(query: unknown): StateQuery {
  const q = validatedQuery(StateQuerySchema, query);
  return {
    filter: {
      blocked: q.blocked === undefined ? null : q.blocked === 'true',
      status: q.status ?? null,
      principal: q.principal ?? null,
      tool: q.tool ?? null,
      failureClass: q.class ?? null,
      scope: q.scope ?? null,
      run: q.run ?? null,
    },
    after: q.cursor === undefined ? null : decodeStateCursor(q.cursor),
    limit: q.limit,
  };
}
