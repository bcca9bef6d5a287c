/**
 * New outbox rows, as the database announces them (LISTEN decision_outbox: the payload is the row id).
 * Only latency depends on it: the decision module also polls, so a lost notification costs a poll interval.
 */
export interface OutboxNotifications {
  listen(onIds: (ids: readonly string[]) => void): Promise<void>;
  close(): Promise<void>;
}
