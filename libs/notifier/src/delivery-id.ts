import { uuidV5 } from '@tokencircuit/governance';

/** Namespace of delivery ids (a fixed random UUID; changing it changes every id). */
const DELIVERY_ID_NAMESPACE = '8d4f2b7e-3c61-4a9e-b05d-6e1f9a2c7d43';

/**
 * One delivery per (episode step, sink), the same id however often the step is redelivered: the primary
 * key of notifier_deliveries and the `webhook-id` a receiver dedupes on.
 */
export function deliveryId(eventId: string, sink: string): string {
  return uuidV5(`${eventId}\u0000${sink}`, DELIVERY_ID_NAMESPACE);
}
