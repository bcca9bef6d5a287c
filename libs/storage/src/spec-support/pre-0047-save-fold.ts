import type { FailureState, OutboxEntry } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';
import { savePre0039Fold } from './pre-0039-save-fold.js';

/**
 * What the projector's save wrote from migration 0039 to 0046, for specs that fill a database the way that
 * build did: a key's latest transition of the fold refers to the state written (state_snapshot null), the ones
 * before it carry a whole copy, and a version a pending referring row still needs is kept in outbox_states
 * before failure_state moves past it.
 */
export async function savePre0047Fold(
  tx: SqlSession,
  fold: { readonly states: readonly FailureState[]; readonly outbox: readonly OutboxEntry[] },
): Promise<void> {
  await tx.query(
    `INSERT INTO outbox_states (key_id, state_version, tenant, state)
     SELECT f.key_id, f.version, f.tenant, f.state FROM failure_state f
      WHERE f.key_id = ANY($1::text[])
        AND (SELECT o.state_snapshot IS NULL AND o.published_at IS NULL
               FROM decision_outbox o WHERE o.id = f.key_id || '@v' || f.version)
     ON CONFLICT (key_id, state_version) DO NOTHING`,
    [fold.states.map((s) => s.keyId)],
  );
  const latest = new Map(fold.states.map((s) => [s.keyId, s.version]));
  const [referring, copying] = [
    fold.outbox.filter((e) => latest.get(e.keyId) === e.stateVersion),
    fold.outbox.filter((e) => latest.get(e.keyId) !== e.stateVersion),
  ];
  await savePre0039Fold(tx, { states: fold.states, outbox: copying });
  await tx.query(
    `INSERT INTO decision_outbox (id, tenant, key_id, state_version)
     SELECT * FROM json_to_recordset($1::json) AS m(id text, tenant text, key_id text, state_version int)
     ON CONFLICT (id) DO NOTHING`,
    [JSON.stringify(referring.map((e) => ({ id: e.id, tenant: e.tenant, key_id: e.keyId, state_version: e.stateVersion })))],
  );
}
