import pg from 'pg';
import type { Logger } from 'pino';
import { listenOutboxInserts } from '@tokencircuit/storage';
import type { OutboxNotifications } from './outbox-notifications.port.js';

/**
 * New outbox rows announced on a connection held from the service's pool (the process's one pool for its
 * role, which counts it), reconnecting after it is lost.
 */
export class PgOutboxNotifications implements OutboxNotifications {
  private client: pg.PoolClient | null = null;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly reconnectDelayMs: number,
    private readonly log: Logger,
  ) {}

  async listen(onIds: (ids: readonly string[]) => void): Promise<void> {
    const client = await this.pool.connect();
    client.on('error', (error) => {
      client.release(error);
      this.log.warn({ err: error }, 'outbox LISTEN connection lost; polling until it is back');
      this.client = null;
      if (!this.closed) setTimeout(() => void this.listen(onIds).catch(() => undefined), this.reconnectDelayMs);
    });
    // Each notification names one new row: the loop claims exactly that row.
    try {
      await listenOutboxInserts(client, onIds);
    } catch (error) {
      client.release(true);
      throw error;
    }
    this.client = client;
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = null;
    // Destroyed, not returned: a connection that listened must not serve a query of someone else.
    client?.release(true);
  }
}
