import type { SqlSession } from '../sql-database.js';
import type { FailureStateRow } from '../tables/failure-state.js';
import { failureStatesWhere } from './failure-states-where.js';

/** One failure state as a listing shows it: the key's coordinates and where it stands now. */
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

/** Which states a listing holds; null means "any". */
export interface FailureStateFilter {
  /** true: only BLOCKING_STATUSES; false: only the others. */
  readonly blocked: boolean | null;
  readonly status: string | null;
  readonly principal: string | null;
  readonly tool: string | null;
  readonly failureClass: string | null;
  readonly scope: 'fleet' | 'run' | null;
  readonly run: string | null;
}

/**
 * A position in the listing (updated_at DESC, key_id DESC). updatedAt travels as whole microseconds since
 * the epoch, Postgres's own precision, so no row is skipped or repeated by a rounding of the timestamp.
 */
export interface FailureStatePosition {
  readonly updatedMicros: string;
  readonly keyId: string;
}

export interface FailureStateListing {
  readonly filter: FailureStateFilter;
  /** The listing continues after this position; null for the first page. */
  readonly after: FailureStatePosition | null;
  readonly limit: number;
}

export interface FailureStatesPage {
  readonly items: FailureStateSummary[];
  /** Where the next page starts; null on the last page. */
  readonly next: FailureStatePosition | null;
}

type SummaryRow = Pick<
  FailureStateRow,
  | 'keyId'
  | 'tenant'
  | 'scope'
  | 'status'
  | 'errorClass'
  | 'toolName'
  | 'principal'
  | 'run'
  | 'resourceClass'
  | 'resourceId'
  | 'authScope'
  | 'budget'
  | 'retryCount'
  | 'verifierStatus'
  | 'version'
> & {
  readonly updatedAt: Date | string;
  // From the state document: absent in rows written before the core recorded them.
  readonly episode: number | null;
  readonly openedAt: string | null;
  readonly violations: number | null;
  readonly lastReceipt: string | null;
  readonly updatedMicros: string;
};

const COLUMNS = `key_id AS "keyId", tenant, scope, status, error_class AS "errorClass", tool_name AS "toolName",
  principal, run, resource_class AS "resourceClass", resource_id AS "resourceId", auth_scope AS "authScope", budget,
  retry_count AS "retryCount", verifier_status AS "verifierStatus", (state->>'episode')::int AS episode,
  state->>'openedAt' AS "openedAt", (state->>'violations')::int AS violations,
  state->'lastReceipts'->>-1 AS "lastReceipt", version, updated_at AS "updatedAt",
  (extract(epoch FROM updated_at) * 1000000)::bigint::text AS "updatedMicros"`;

/**
 * A page of the failure states the session sees, most recently changed first. No tenant predicate on
 * purpose: run it under withTenant, whose row-level security keeps other tenants' rows out.
 */
export async function listFailureStates(session: SqlSession, listing: FailureStateListing): Promise<FailureStatesPage> {
  const { where, params } = failureStatesWhere(listing);
  params.push(listing.limit + 1);
  const { rows } = await session.query<SummaryRow>(
    `SELECT ${COLUMNS} FROM failure_state ${where} ORDER BY updated_at DESC, key_id DESC LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, listing.limit);
  const last = page.at(-1);
  const more = rows.length > listing.limit && last !== undefined;
  return {
    items: page.map(toSummary),
    next: more ? { updatedMicros: last.updatedMicros, keyId: last.keyId } : null,
  };
}

function toSummary(row: SummaryRow): FailureStateSummary {
  const updatedAt = new Date(row.updatedAt).toISOString();
  return {
    keyId: row.keyId,
    tenant: row.tenant,
    scope: row.scope,
    status: row.status,
    failureClass: row.errorClass,
    toolName: row.toolName,
    principal: row.principal,
    run: row.run,
    resourceClass: row.resourceClass,
    resourceId: row.resourceId,
    authScope: row.authScope,
    budget: row.budget,
    retryCount: row.retryCount,
    verifierStatus: row.verifierStatus,
    episode: row.episode ?? 1,
    openedAt: row.openedAt ?? updatedAt,
    violations: row.violations ?? 0,
    lastReceipt: row.lastReceipt,
    version: row.version,
    updatedAt,
  };
}
