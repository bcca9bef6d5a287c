import pg from 'pg';
import type { Logger } from 'pino';
import { listenOutboxInserts } from '@tokencircuit/storage';
import type { OutboxNotifications } from './outbox-notifications.port.js';

/** New outbox rows announced on a dedicated node-postgres connection, reconnecting after it is lost. */
export class PgOutboxNotifications implements OutboxNotifications {
  private client: pg.Client | null = null;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly reconnectDelayMs: number,
    private readonly log: Logger,
  ) {}

  async listen(onIds: (ids: readonly string[]) => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'outbox LISTEN connection lost; polling until it is back');
      this.client = null;
      if (!this.closed) setTimeout(() => void this.listen(onIds).catch(() => undefined), this.reconnectDelayMs);
    });
    await client.connect();
    // Each notification names one new row: the loop claims exactly that row.
    await listenOutboxInserts(client, onIds);
    this.client = client;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => undefined);
  }
}
