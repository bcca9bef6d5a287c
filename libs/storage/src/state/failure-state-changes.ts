import { createHash } from 'node:crypto';
import type pg from 'pg';

/**
 * The channel migration 0046's statement triggers notify when failure_state rows change: the payload is the
 * changed coordinates as space-separated hashes (stateCoordinateHash), at most ≈ 7,900 bytes per notification.
 */
export const FAILURE_STATE_CHANGES_CHANNEL = 'failure_state_changes';

const US = '\u001f';

/**
 * The hash the trigger announces a coordinate by: the first 16 hex digits of md5('r' US tenant US run) for a
 * run key's coordinates, md5('p' US tenant US principal) for a fleet key's. Not identifiers on the wire: any
 * role that can connect may LISTEN. Two coordinates with one hash only make a cache drop more than it must.
 */
export function stateCoordinateHash(kind: 'run' | 'principal', tenant: string, value: string): string {
  const text = `${kind === 'run' ? 'r' : 'p'}${US}${tenant}${US}${value}`;
  return createHash('md5').update(text, 'utf8').digest('hex').slice(0, 16);
}

/** The coordinate hashes one notification names (an empty payload names none). */
export const changedCoordinatesOf = (payload: string | undefined): string[] =>
  payload ? payload.split(' ').filter((h) => h.length > 0) : [];

/**
 * Subscribes a dedicated connection to failure_state changes: `onChanged` gets the coordinate hashes each
 * committed statement changed. The connection must stay open and unpooled: LISTEN lasts as long as the session.
 */
export async function listenFailureStateChanges(
  client: pg.ClientBase,
  onChanged: (hashes: readonly string[]) => void,
): Promise<void> {
  client.on('notification', (message) => {
    if (message.channel === FAILURE_STATE_CHANGES_CHANNEL) onChanged(changedCoordinatesOf(message.payload));
  });
  await client.query(`LISTEN ${FAILURE_STATE_CHANGES_CHANNEL}`);
}
