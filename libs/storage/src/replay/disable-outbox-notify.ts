import type { SqlSession } from '../sql-database.js';

/**
 * Stops decision_outbox inserts in the session's schema from sending NOTIFY. The channel is database-wide,
 * so without this a replay schema's rows would wake the live decision service for nothing it should read.
 */
export async function disableOutboxNotify(session: SqlSession): Promise<void> {
  await session.query('ALTER TABLE decision_outbox DISABLE TRIGGER decision_outbox_notify');
}
