import { listFailureStates as listStates, type FailureStateSummary, type SqlSession } from '@tokencircuit/storage';
import { encodeStateCursor } from './state-cursor.js';
import type { StateQuery } from './state-query.js';

/** One failure state as GET /v1/state lists it (storage's shape). */
export type { FailureStateSummary } from '@tokencircuit/storage';

export interface FailureStatePage {
  readonly items: FailureStateSummary[];
  /** Pass as `cursor` for the next page; null on the last page. */
  readonly nextCursor: string | null;
}

/**
 * A page of the tenant's failure states, most recently changed first. `session` must come from
 * TenantScope.read: row-level security, not this query, keeps other tenants' rows out.
 */
export async function listFailureStates(session: SqlSession, query: StateQuery): Promise<FailureStatePage> {
  const page = await listStates(session, query);
  return { items: page.items, nextCursor: page.next === null ? null : encodeStateCursor(page.next) };
}
