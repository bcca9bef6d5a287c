import { purgePublishedOutbox, type SqlDatabase } from '@tokencircuit/storage';

/**
 * Deletes published outbox rows once they are older than the retention, keeping their ids in
 * decision_outbox_purged (same statement). The outbox is plumbing between the projector and the decision
 * service — the audit record is `interventions` — and kept forever it grows by about 0.65 rows of ≈ 1.4 KB per
 * agent event. Pending rows are never touched, and a deleted row cannot come back: its causing events are in
 * agent_events and below the projector's checkpoint, so no redelivery re-inserts it; `tokencircuit replay`
 * counts the kept ids as live, so a rebuild still matches.
 */
export class OutboxRetention {
  constructor(
    private readonly db: SqlDatabase,
    private readonly retentionHours: number,
    /** Rows per statement, so one purge never holds locks or bloats WAL for long. */
    private readonly batchSize = 5_000,
  ) {}

  /** Deletes up to `maxBatches` batches of expired rows; returns how many went. */
  async purge(maxBatches = 20): Promise<number> {
    let deleted = 0;
    for (let batch = 0; batch < maxBatches; batch++) {
      const n = await purgePublishedOutbox(this.db, {
        olderThanHours: this.retentionHours,
        limit: this.batchSize,
      });
      deleted += n;
      if (n < this.batchSize) break;
    }
    return deleted;
  }
}
