import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { SqlSession } from '../sql-database.js';
import type { DeliverySinkType } from './delivery-sink-type.js';
import type { DeadDeliveryCause } from './mark-delivery-dead.js';

/** A dead delivery not yet in the DLQ (marked dead, then maybe the notifier died before publishing). */
export interface UnpublishedDeadLetter {
  readonly id: string;
  readonly sink: string;
  readonly sinkType: DeliverySinkType;
  readonly step: EpisodeEventData;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError: string;
  readonly cause: DeadDeliveryCause;
  /** ISO-8601 UTC. */
  readonly deadAt: string;
}

/**
 * Up to `limit` dead deliveries the DLQ does not have yet, oldest first, locked until the transaction ends
 * (SKIP LOCKED: two notifiers never both publish one).
 */
export async function readUnpublishedDeadLetters(tx: SqlSession, limit: number): Promise<UnpublishedDeadLetter[]> {
  const { rows } = await tx.query<{
    id: string;
    sink: string;
    sink_type: DeliverySinkType;
    step: EpisodeEventData;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    dead_cause: DeadDeliveryCause | null;
    finished_at: Date | string;
  }>(
    `SELECT id, sink, sink_type, step, attempts, last_status, last_error, dead_cause, finished_at
       FROM notifier_deliveries WHERE status = 'dead' AND dlq_published_at IS NULL ORDER BY seq LIMIT $1
        FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    sink: r.sink,
    sinkType: r.sink_type,
    step: r.step,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error ?? '',
    cause: r.dead_cause ?? 'exhausted',
    deadAt: new Date(r.finished_at).toISOString(),
  }));
}
