import type pg from 'pg';
import { listenFailureStateChanges } from '@tokencircuit/storage';
import type { CandidateCache } from './candidate-cache.js';

/** How long after a lost LISTEN connection the next attempt is made (the cache reads through meanwhile). */
const RECONNECT_DELAY_MS = 1_000;

/**
 * Feeds a CandidateCache from failure_state's change notifications on a connection held from the API's pool,
 * reconnecting after it is lost. The cache serves from memory only while this connection listens.
 */
export class CandidateCacheListener {
  private client: pg.PoolClient | null = null;
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
    const client = await this.pool.connect();
    client.on('error', (error) => {
      this.cache.stop();
      if (this.client === client) this.client = null;
      client.release(error);
      this.retryLater();
    });
    try {
      await listenFailureStateChanges(client, (hashes) => this.cache.changed(hashes));
    } catch (error) {
      client.release(true);
      throw error;
    }
    if (this.closed) {
      client.release(true);
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
    // Destroyed, not returned: a connection that listened must not serve someone else's query.
    client?.release(true);
  }
}
