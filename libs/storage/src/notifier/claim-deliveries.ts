import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { SqlSession } from '../sql-database.js';
import type { DeliverySinkType } from './delivery-sink-type.js';

/** A claimed delivery, as the dispatcher works on it. `attempts` already counts the attempt it is claimed for. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly sink: string;
  readonly sinkType: DeliverySinkType;
  readonly step: EpisodeEventData;
  readonly attempts: number;
}

/**
 * Claims up to `limit` due deliveries of the given sinks for `leaseMs`, counting the attempt now (so a
 * delivery that kills its notifier still runs out of attempts), in queue order. Only the head of each
 * (sink, episode) queue is due: PagerDuty must see the trigger before the resolve. A claim whose lease ran
 * out (its notifier died) is due again; SKIP LOCKED lets several notifiers claim side by side.
 */
export async function claimDeliveries(
  tx: SqlSession,
  { sinks, limit, leaseMs }: { readonly sinks: readonly string[]; readonly limit: number; readonly leaseMs: number },
): Promise<ClaimedDelivery[]> {
  if (sinks.length === 0 || limit <= 0) return [];
  const { rows } = await tx.query<{
    id: string;
    sink: string;
    sink_type: DeliverySinkType;
    step: EpisodeEventData;
    attempts: number;
    seq: string;
  }>(
    `UPDATE notifier_deliveries d
        SET claimed_until = now() + $3 * interval '1 millisecond', attempts = d.attempts + 1
      WHERE d.id IN (
        SELECT c.id FROM notifier_deliveries c
         WHERE c.status = 'pending' AND c.next_attempt_at <= now()
           AND (c.claimed_until IS NULL OR c.claimed_until < now())
           AND c.sink = ANY($1::text[])
           AND NOT EXISTS (
             SELECT 1 FROM notifier_deliveries e
              WHERE e.sink = c.sink AND e.episode_id = c.episode_id AND e.status = 'pending' AND e.seq < c.seq)
         ORDER BY c.seq
         LIMIT $2
         FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.sink, d.sink_type, d.step, d.attempts, d.seq`,
    [sinks, limit, leaseMs],
  );
  // RETURNING follows no order: the queue order is seq's.
  return rows
    .sort((a, b) => Number(a.seq) - Number(b.seq))
    .map((r) => ({ id: r.id, sink: r.sink, sinkType: r.sink_type, step: r.step, attempts: r.attempts }));
}
