import { z } from 'zod';
import { FailureClassSchema } from '@tokencircuit/contracts';
import { validatedQuery } from '../http/query-params.js';
import { decodeStateCursor, MAX_STATE_CURSOR_CHARS, type StateCursor } from './state-cursor.js';

export const MAX_STATE_PAGE = 500;

/** The statuses in which the key's next attempt is refused until an operator or a verifier acts. */
export const BLOCKING_STATUSES = ['blocked', 'exhausted', 'awaiting_verification'] as const;
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

export interface StateFilter {
  readonly blocked: boolean | null;
  readonly status: string | null;
  readonly principal: string | null;
  readonly tool: string | null;
  readonly failureClass: string | null;
  readonly scope: 'fleet' | 'run' | null;
  readonly run: string | null;
}

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

/**
 * WHERE clause and parameters of a page, newest change first. No tenant predicate on purpose: it runs
 * under the tenant's row-level security, which is what isolates tenants.
 */
export function stateWhere(query: StateQuery): { where: string; params: unknown[] } {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (placeholder: string) => string, value: unknown): void => {
    params.push(value);
    conditions.push(sql(`$${params.length}`));
  };
  const f = query.filter;
  if (f.blocked !== null) add((p) => `${f.blocked ? '' : 'NOT '}(status = ANY(${p}::text[]))`, BLOCKING_STATUSES);
  if (f.status !== null) add((p) => `status = ${p}`, f.status);
  if (f.principal !== null) add((p) => `principal = ${p}`, f.principal);
  if (f.tool !== null) add((p) => `tool_name = ${p}`, f.tool);
  // error_class is the key's failure class (the RFC's normalised error_class field).
  if (f.failureClass !== null) add((p) => `error_class = ${p}`, f.failureClass);
  if (f.scope !== null) add((p) => `scope = ${p}`, f.scope);
  if (f.run !== null) add((p) => `run = ${p}`, f.run);
  if (query.after !== null) {
    params.push(query.after.updatedMicros, query.after.keyId);
    const [micros, key] = [`$${params.length - 1}`, `$${params.length}`];
    conditions.push(
      `(updated_at, key_id) < ('epoch'::timestamptz + ${micros}::bigint * interval '1 microsecond', ${key})`,
    );
  }
  return { where: conditions.length ? `WHERE ${conditions.join(' AND ')}` : '', params };
}
