import { applyStateDelta, outboxIdOf, type FailureState, type StateDelta } from '@tokencircuit/governance';
import type { InlineStatement, SqlSession } from '../sql-database.js';
import { sqlTextArray } from '../sql-literal.js';
import type { DecisionOutboxRow, EarlierTransition } from '../tables/decision-outbox.js';
import { OUTBOX_SNAPSHOT, OUTBOX_SNAPSHOT_JOINS, OUTBOX_STATE_KEY, withDelta } from './outbox-snapshot.js';
import type { StateKeyColumns } from '../state/state-document.js';
import { PENDING_BY_ID } from './pending-by-id.js';

/** One transition a claimed row decides: its id ("<key id>@v<version>") and the state it decides on. */
export interface ClaimedTransition {
  readonly id: string;
  readonly stateVersion: number;
  /** null: the state is gone (see ClaimedOutboxRow.stateSnapshot) or unreadable. */
  readonly stateSnapshot: FailureState | null;
}

/**
 * A pending outbox row as the relay decides it, with how long it has waited so far. stateSnapshot is the
 * state it refers to when it holds no copy (OUTBOX_SNAPSHOT); null only if that state is gone, which the
 * relay parks. `earlier`: the key's transitions before the row's own in its projector transaction (migration
 * 0053), in version order, each with its state rebuilt from the row's. `unreadable`: why the row's states could
 * not be rebuilt (a delta that does not fit its base: the database was edited); the relay parks the row.
 */
export type ClaimedOutboxRow = Pick<DecisionOutboxRow, 'id' | 'tenant' | 'keyId' | 'stateVersion' | 'stateSnapshot'> & {
  readonly waitedSeconds: number;
  readonly earlier: readonly ClaimedTransition[];
  readonly unreadable?: string;
};

/**
 * Locks up to `limit` pending rows (neither published nor parked) until the transaction ends, oldest first.
 * SKIP LOCKED lets relay instances share the work. `ids`: only those rows (the ids a notification named),
 * found by primary key; without it the claim walks the pending index from the oldest row, which also passes
 * the entries of published rows not yet vacuumed.
 */
export async function claimOutboxRows(tx: SqlSession, claim: OutboxClaim): Promise<ClaimedOutboxRow[]> {
  const statement = claimOutboxStatement(claim);
  return statement.read((await tx.query(statement.text)).rows);
}

export interface OutboxClaim {
  readonly limit: number;
  readonly ids?: readonly string[];
}

/**
 * claimOutboxRows written with its values inline, to open a relay round's transaction: it goes to the server
 * with the BEGIN (transactionOpenedBy), a round trip less on every round.
 */
export function claimOutboxStatement({ limit, ids }: OutboxClaim): InlineStatement<ClaimedOutboxRow[]> {
  if (!Number.isSafeInteger(limit) || limit < 1)
    throw new RangeError(`claimOutboxRows: limit ${limit} is not a positive integer`);
  return {
    text: `SELECT ${OUTBOX_ROW_COLUMNS}
       FROM decision_outbox o ${OUTBOX_SNAPSHOT_JOINS}
      WHERE ${ids ? `o.id = ANY(${sqlTextArray(ids)}) AND ${PENDING_BY_ID}` : 'o.published_at IS NULL AND o.parked_at IS NULL'}
      ORDER BY o.claim_order LIMIT ${limit} FOR UPDATE OF o SKIP LOCKED`,
    read: (rows) => (rows as StoredOutboxRow[]).map(claimedRowOf),
  };
}

export const OUTBOX_ROW_COLUMNS = `o.id, o.tenant, o.key_id AS "keyId", o.state_version AS "stateVersion",
  ${OUTBOX_SNAPSHOT} AS "stateSnapshot", o.state_delta AS "stateDelta", ${OUTBOX_STATE_KEY} AS "stateKey",
  o.earlier, extract(epoch FROM clock_timestamp() - o.created_at)::float8 AS "waitedSeconds"`;

export type StoredOutboxRow = Omit<ClaimedOutboxRow, 'earlier' | 'unreadable'> & {
  readonly stateDelta: StateDelta | null;
  readonly stateKey: StateKeyColumns | null;
  readonly earlier: unknown;
};

/** A row as OUTBOX_ROW_COLUMNS reads it, with every state it decides rebuilt; never throws (see `unreadable`). */
export function claimedRowOf({ stateDelta, stateKey, earlier, ...row }: StoredOutboxRow): ClaimedOutboxRow {
  try {
    const own = withDelta(row.stateSnapshot, stateDelta, stateKey);
    return { ...row, stateSnapshot: own, earlier: earlierTransitions(row.keyId, row.stateVersion, own, earlier) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return { ...row, stateSnapshot: null, earlier: [], unreadable: `its states cannot be rebuilt: ${reason}` };
  }
}

/** Every transition a claimed row decides, in version order: its `earlier` ones, then its own. */
export const transitionsOf = (row: ClaimedOutboxRow): readonly ClaimedTransition[] => [...row.earlier, row];

/** A row's `earlier` ([version, delta] pairs, versions rising below its own) as transitions; throws on any other shape. */
function earlierTransitions(
  keyId: string,
  version: number,
  own: FailureState | null,
  earlier: unknown,
): ClaimedTransition[] {
  if (earlier === null || earlier === undefined) return [];
  if (!Array.isArray(earlier)) throw new TypeError('earlier is not an array');
  let below = 0;
  return earlier.map((pair: unknown) => {
    if (!Array.isArray(pair) || pair.length !== 2 || !isVersionBetween(pair[0], below, version))
      throw new TypeError(`earlier holds ${JSON.stringify(pair)?.slice(0, 80)}, not [version, delta] in rising order`);
    const [at, delta] = pair as unknown as EarlierTransition;
    below = at;
    return { id: outboxIdOf(keyId, at), stateVersion: at, stateSnapshot: own && applyStateDelta(own, delta) };
  });
}

const isVersionBetween = (v: unknown, above: number, below: number): v is number =>
  Number.isInteger(v) && (v as number) > above && (v as number) < below;
