import type pg from 'pg';

/** The channel the decision_outbox insert trigger notifies (migration 0002), with the new row's id as payload. */
export const OUTBOX_CHANNEL = 'decision_outbox';

/**
 * Subscribes a dedicated connection to new outbox rows: `onIds` gets the id each insert announces. The
 * connection must stay open (and not be pooled): LISTEN lasts as long as the session.
 */
export async function listenOutboxInserts(client: pg.Client, onIds: (ids: readonly string[]) => void): Promise<void> {
  client.on('notification', (message) => {
    if (message.channel === OUTBOX_CHANNEL) onIds(message.payload ? [message.payload] : []);
  });
  await client.query(`LISTEN ${OUTBOX_CHANNEL}`);
}
