import pg from 'pg';
import { listenFailureStateChanges } from '@tokencircuit/storage';
import type { CandidateCache } from './candidate-cache.js';

/** How long after a lost LISTEN connection the next attempt is made (the cache reads through meanwhile). */
const RECONNECT_DELAY_MS = 1_000;

/**
 * Feeds a CandidateCache from failure_state's change notifications on a connection of its own (the pool's
 * settings, outside its count: one more connection per API process), reconnecting after it is lost. The cache
 * serves from memory only while this connection listens. The connection neither holds a pool client (ending the
 * pool never waits for it) nor keeps the process alive.
 */
export class CandidateCacheListener {
  private client: pg.Client | null = null;
  private starting: Promise<void> | null = null;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly cache: CandidateCache,
  ) {}

  /** Starts listening once (later calls share the attempt); a failed attempt is retried after a delay. */
  ensureListening(): void {
    if (this.closed || this.client !== null || this.starting !== null) return;
    this.starting = this.listen()
      .catch(() => this.retryLater())
      .finally(() => {
        this.starting = null;
      });
  }

  private async listen(): Promise<void> {
    const client = new pg.Client(this.pool.options);
    client.on('error', () => {
      this.cache.stop();
      if (this.client === client) this.client = null;
      void client.end().catch(() => undefined);
      this.retryLater();
    });
    try {
      await client.connect();
      unref(client);
      await listenFailureStateChanges(client, (hashes) => this.cache.changed(hashes));
    } catch (error) {
      void client.end().catch(() => undefined);
      throw error;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.cache.start();
  }

  private retryLater(): void {
    if (this.closed) return;
    setTimeout(() => this.ensureListening(), RECONNECT_DELAY_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.starting;
    this.cache.stop();
    const client = this.client;
    this.client = null;
    await client?.end().catch(() => undefined);
  }
}

/** An auxiliary connection must not keep the process running: its socket is unreferenced. */
function unref(client: pg.Client): void {
  const stream = (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream;
  stream?.unref?.();
}
