import type { SqlSession } from '@tokencircuit/storage';
import { encodeStateCursor } from './state-cursor.js';
import { stateWhere, type StateQuery } from './state-query.js';

/** One failure state as GET /v1/state lists it: the key's coordinates and where it stands now. */
export interface FailureStateSummary {
  readonly keyId: string;
  readonly tenant: string;
  readonly scope: 'fleet' | 'run';
  readonly status: string;
  readonly failureClass: string;
  readonly toolName: string;
  readonly principal: string | null;
  readonly run: string | null;
  readonly resourceClass: string | null;
  readonly resourceId: string | null;
  readonly authScope: string | null;
  readonly budget: number;
  readonly retryCount: number;
  readonly verifierStatus: string;
  readonly episode: number;
  /** When this failure episode began (the first classified failure). */
  readonly openedAt: string;
  readonly violations: number;
  /** The newest redacted error receipt, if any. */
  readonly lastReceipt: string | null;
  readonly version: number;
  readonly updatedAt: string;
}

export interface FailureStatePage {
  readonly items: FailureStateSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

interface SummaryRow {
  key_id: string;
  tenant: string;
  scope: 'fleet' | 'run';
  status: string;
  error_class: string;
  tool_name: string;
  principal: string | null;
  run: string | null;
  resource_class: string | null;
  resource_id: string | null;
  auth_scope: string | null;
  budget: number;
  retry_count: number;
  verifier_status: string;
  episode: number | null;
  opened_at: string | null;
  violations: number | null;
  last_receipt: string | null;
  version: number;
  updated_at: Date | string;
  updated_micros: string;
}

const COLUMNS = `key_id, tenant, scope, status, error_class, tool_name, principal, run, resource_class, resource_id,
  auth_scope, budget, retry_count, verifier_status, (state->>'episode')::int AS episode, state->>'openedAt' AS opened_at,
  (state->>'violations')::int AS violations, state->'lastReceipts'->>-1 AS last_receipt, version, updated_at,
  (extract(epoch FROM updated_at) * 1000000)::bigint::text AS updated_micros`;

const iso = (value: Date | string): string => new Date(value).toISOString();

function toSummary(row: SummaryRow): FailureStateSummary {
  const updatedAt = iso(row.updated_at);
  return {
    keyId: row.key_id,
    tenant: row.tenant,
    scope: row.scope,
    status: row.status,
    failureClass: row.error_class,
    toolName: row.tool_name,
    principal: row.principal,
    run: row.run,
    resourceClass: row.resource_class,
    resourceId: row.resource_id,
    authScope: row.auth_scope,
    budget: row.budget,
    retryCount: row.retry_count,
    verifierStatus: row.verifier_status,
    episode: row.episode ?? 1,
    openedAt: row.opened_at ?? updatedAt,
    violations: row.violations ?? 0,
    lastReceipt: row.last_receipt,
    version: row.version,
    updatedAt,
  };
}

/**
 * A page of the tenant's failure states, most recently changed first. `session` must come from
 * TenantScope.read: row-level security, not this query, keeps other tenants' rows out.
 */
export async function listFailureStates(session: SqlSession, query: StateQuery): Promise<FailureStatePage> {
  const { where, params } = stateWhere(query);
  params.push(query.limit + 1);
  const { rows } = await session.query<SummaryRow>(
    `SELECT ${COLUMNS} FROM failure_state ${where} ORDER BY updated_at DESC, key_id DESC LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  const more = rows.length > query.limit && last !== undefined;
  return {
    items: page.map(toSummary),
    nextCursor: more ? encodeStateCursor({ updatedMicros: last.updated_micros, keyId: last.key_id }) : null,
  };
}
