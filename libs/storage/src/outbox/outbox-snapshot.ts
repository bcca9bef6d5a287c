import { applyStateDelta, type FailureState, type StateDelta } from '@tokencircuit/governance';
import { stateKeyColumnsObject, stateOfRow, type StateKeyColumns } from '../state/state-document.js';

/**
 * The state an outbox row `o` decides (migration 0039, decisions by reference): its own copy, else
 * failure_state's row at its version, else the version the projector kept in outbox_states when
 * failure_state moved past it. Any one snapshot of the database holds exactly one of the three for a pending
 * row; null only for a row whose state is gone (a published row's, once decided). A row with a delta
 * (migration 0047) reads the state at its base_version the same way; withDelta lays the delta over it.
 * failure_state's row is joined whatever its version: its key columns (OUTBOX_STATE_KEY) make a document stored
 * without its key whole (stateOfRow), and a key's row is never deleted.
 */
export const OUTBOX_SNAPSHOT_JOINS = `
  LEFT JOIN failure_state f ON f.key_id = o.key_id
  LEFT JOIN outbox_states k ON o.state_snapshot IS NULL
        AND f.version IS DISTINCT FROM coalesce(o.base_version, o.state_version)
        AND k.key_id = o.key_id AND k.state_version = coalesce(o.base_version, o.state_version)`;

export const OUTBOX_SNAPSHOT = `coalesce(o.state_snapshot,
  CASE WHEN f.version = coalesce(o.base_version, o.state_version) THEN f.state END, k.state)`;

/**
 * The key columns of the row's key (StateKeyColumns) as one JSON object, for a state read from failure_state or
 * outbox_states; null for a row with its own copy (written whole) or whose key's row is gone.
 */
export const OUTBOX_STATE_KEY = `CASE WHEN o.state_snapshot IS NULL AND f.key_id IS NOT NULL
  THEN ${stateKeyColumnsObject('f.')} END`;

/**
 * The row's own state: the snapshot read by OUTBOX_SNAPSHOT made whole with its key's columns (OUTBOX_STATE_KEY)
 * when it was stored without them, with the row's delta (if any) laid over it. null: the state is gone.
 */
export function withDelta(
  snapshot: FailureState | null,
  delta: StateDelta | null,
  key: StateKeyColumns | null,
): FailureState | null {
  if (snapshot === null) return null;
  const whole = key === null ? snapshot : stateOfRow(snapshot, key);
  return delta === null ? whole : applyStateDelta(whole, delta);
}
