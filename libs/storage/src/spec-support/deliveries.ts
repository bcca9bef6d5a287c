import type pg from 'pg';
import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { NewDelivery } from '../notifier/record-deliveries.js';
import type { DeliverySinkType } from '../notifier/delivery-sink-type.js';
import { episodeStep } from './episode-steps.js';

/** A delivery of a fresh step (event id = delivery id) of `episodeId` to `sink`. */
export function delivery(
  id: string,
  sink: string,
  options: {
    readonly episodeId?: string;
    readonly tenant?: string;
    readonly sinkType?: DeliverySinkType;
    readonly step?: EpisodeEventData;
  } = {},
): NewDelivery {
  return {
    id,
    sink,
    sinkType: options.sinkType ?? 'webhook',
    step:
      options.step ??
      episodeStep({
        eventId: `event-${id}`,
        episodeId: options.episodeId ?? `episode-of-${id}`,
        tenant: options.tenant ?? 'acme',
      }),
  };
}

export interface DeliveryState {
  readonly id: string;
  readonly status: string;
  readonly attempts: number;
  readonly claimed: boolean;
  readonly last_status: number | null;
  readonly last_error: string | null;
  readonly dead_cause: string | null;
  readonly finished: boolean;
  readonly dlq_published: boolean;
}

export async function deliveryStates(pool: pg.Pool): Promise<DeliveryState[]> {
  const { rows } = await pool.query<DeliveryState>(
    `SELECT id, status, attempts, claimed_until IS NOT NULL AS claimed, last_status, last_error, dead_cause,
            finished_at IS NOT NULL AS finished, dlq_published_at IS NOT NULL AS dlq_published
       FROM notifier_deliveries ORDER BY seq`,
  );
  return rows;
}

export async function deliveryState(pool: pg.Pool, id: string): Promise<DeliveryState | undefined> {
  return (await deliveryStates(pool)).find((d) => d.id === id);
}
