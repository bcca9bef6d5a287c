import { applyStateDelta, type FailureState, type StateDelta } from '@tokencircuit/governance';

/**
 * The state an outbox row `o` decides (migration 0039, decisions by reference): its own copy, else
 * failure_state's row at its version, else the version the projector kept in outbox_states when
 * failure_state moved past it. Any one snapshot of the database holds exactly one of the three for a pending
 * row; null only for a row whose state is gone (a published row's, once decided). A row with a delta
 * (migration 0047) reads the state at its base_version the same way; withDelta lays the delta over it.
 */
export const OUTBOX_SNAPSHOT_JOINS = `
  LEFT JOIN failure_state f ON o.state_snapshot IS NULL AND f.key_id = o.key_id
        AND f.version = coalesce(o.base_version, o.state_version)
  LEFT JOIN outbox_states k ON o.state_snapshot IS NULL AND f.key_id IS NULL
        AND k.key_id = o.key_id AND k.state_version = coalesce(o.base_version, o.state_version)`;

export const OUTBOX_SNAPSHOT = 'coalesce(o.state_snapshot, f.state, k.state)';

/** The row's own state: the snapshot read by OUTBOX_SNAPSHOT, with the row's delta (if any) laid over it. */
export function withDelta(snapshot: FailureState | null, delta: StateDelta | null): FailureState | null {
  return snapshot === null || delta === null ? snapshot : applyStateDelta(snapshot, delta);
}
