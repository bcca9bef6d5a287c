import pg from 'pg';
import type { Logger } from 'pino';

/**
 * Wakes the relay on NOTIFY decision_outbox (latency) and on a timer (safety: a missed notification,
 * a lost connection, or rows left by a crashed instance are still picked up).
 */
export class OutboxWakeups {
  private client: pg.Client | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly pollIntervalMs: number,
    private readonly wake: (ids?: readonly string[]) => void,
    private readonly log: Logger,
  ) {}

  async start(): Promise<void> {
    this.timer = setInterval(() => this.wake(), this.pollIntervalMs);
    await this.listen();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.client?.end().catch(() => undefined);
  }

  private async listen(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl });
    // The payload is the outbox row id (see the trigger): the loop claims exactly that row.
    client.on('notification', (message) => this.wake(message.payload ? [message.payload] : undefined));
    client.on('error', (error) => {
      this.log.warn({ err: error }, 'outbox LISTEN connection lost; polling until it is back');
      this.client = null;
      if (!this.stopped) setTimeout(() => void this.listen().catch(() => undefined), this.pollIntervalMs);
    });
    await client.connect();
    await client.query('LISTEN decision_outbox');
    this.client = client;
  }
}
