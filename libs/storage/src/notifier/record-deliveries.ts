import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { SqlSession } from '../sql-database.js';
import type { DeliverySinkType } from './delivery-sink-type.js';

/** A delivery to record: one (episode step, sink), under a stable id. */
export interface NewDelivery {
  readonly id: string;
  readonly sink: string;
  readonly sinkType: DeliverySinkType;
  readonly step: EpisodeEventData;
}

/**
 * Records deliveries pending, in the given order (their queue order per sink and episode). One already
 * recorded (same id: a redelivered step) is left as it is. Returns the deliveries that are new.
 */
export async function recordDeliveries<D extends NewDelivery>(tx: SqlSession, deliveries: readonly D[]): Promise<D[]> {
  if (deliveries.length === 0) return [];
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO notifier_deliveries (id, tenant, sink, sink_type, event_id, episode_id, transition, level, step)
     SELECT d.v->>'id', d.v->'step'->>'tenant', d.v->>'sink', d.v->>'sinkType', d.v->'step'->>'eventId',
            d.v->'step'->>'episodeId', d.v->'step'->>'transition', d.v->'step'->>'level', d.v->'step'
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS d(v, ord)
      ORDER BY d.ord
     ON CONFLICT (id) DO NOTHING
     RETURNING id`,
    [JSON.stringify(deliveries)],
  );
  const inserted = new Set(rows.map((r) => r.id));
  return deliveries.filter((d) => inserted.has(d.id));
}
