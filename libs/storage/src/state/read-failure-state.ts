import type { FailureState } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';
import type { FailureStateRow } from '../tables/failure-state.js';
import { stateKeyColumnsObject, stateOfRow, type StateKeyColumns } from './state-document.js';

/** One failure state key as stored: where it stands and the core's whole state. */
export interface FailureStateRecord {
  readonly keyId: string;
  readonly tenant: string;
  readonly scope: string;
  readonly status: string;
  readonly version: number;
  readonly updatedAt: string;
  readonly state: FailureState;
}

type Row = Pick<FailureStateRow, 'keyId' | 'tenant' | 'scope' | 'status' | 'version' | 'state'> & {
  readonly updatedAt: Date | string;
  /** The key columns (StateKeyColumns), as one value: the document may need them (stateOfRow). */
  readonly columns: StateKeyColumns;
};

/** The state of this key, or null; under withTenant another tenant's key finds nothing. */
export async function readFailureState(session: SqlSession, keyId: string): Promise<FailureStateRecord | null> {
  const { rows } = await session.query<Row>(
    `SELECT key_id AS "keyId", tenant, scope, status, version, updated_at AS "updatedAt", state,
            ${stateKeyColumnsObject()} AS columns
       FROM failure_state WHERE key_id = $1`,
    [keyId],
  );
  const row = rows[0];
  if (!row) return null;
  const { columns, ...record } = row;
  return { ...record, state: stateOfRow(row.state, columns), updatedAt: new Date(row.updatedAt).toISOString() };
}
