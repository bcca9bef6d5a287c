import type { FailureState } from '../model.js';

/** A state transition waiting for the decision service; its id is stable under replay. */
export interface OutboxEntry {
  /** `${keyId}@v${version}`: a replayed transition yields the same id, so inserting it twice is a no-op. */
  readonly id: string;
  readonly keyId: string;
  readonly tenant: string;
  readonly stateVersion: number;
  readonly snapshot: FailureState;
}

/** The id of a key's transition to `version`: stable under replay, and unique in the outbox. */
export const outboxIdOf = (keyId: string, version: number): string => `${keyId}@v${version}`;

export const outboxEntryOf = (state: FailureState): OutboxEntry => ({
  id: outboxIdOf(state.keyId, state.version),
  keyId: state.keyId,
  tenant: state.key.tenant,
  stateVersion: state.version,
  snapshot: state,
});
