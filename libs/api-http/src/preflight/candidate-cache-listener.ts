import pg from 'pg';
import { listenFailureStateChanges } from '@tokencircuit/storage';
import type { CandidateCache } from './candidate-cache.js';

/** How long after a lost LISTEN connection the next attempt is made (the cache reads through meanwhile). */
const RECONNECT_DELAY_MS = 1_000;
/**
 * How often the listening connection is proven alive by a round trip on it, and how long that may take. A
 * connection can die without an error (a firewall or NAT that forgets an idle flow): notifications would stop
 * while the cache kept serving, so a connection that does not answer in time is treated as lost.
 */
export const LISTEN_HEARTBEAT_MS = 5_000;
export const LISTEN_HEARTBEAT_TIMEOUT_MS = 3_000;

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
  private heartbeat: NodeJS.Timeout | null = null;

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
    client.on('error', () => this.lost(client));
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
    this.heartbeat = setInterval(() => void this.beat(client), LISTEN_HEARTBEAT_MS).unref();
  }

  /** One round trip on the listening connection; no answer in time is a lost connection. */
  private async beat(client: pg.Client): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), LISTEN_HEARTBEAT_TIMEOUT_MS).unref();
    });
    const answer = await Promise.race([client.query('SELECT 1').then(() => 'ok' as const, () => 'failed' as const), late]);
    clearTimeout(timer);
    if (answer !== 'ok') this.lost(client);
  }

  /** The connection is gone (an error, or a heartbeat without answer): serve nothing from memory, listen anew. */
  private lost(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.cache.stop();
    // end() may wait forever on a connection that answers nothing: the socket is destroyed as well.
    void client.end().catch(() => undefined);
    (client as unknown as { connection?: { stream?: { destroy?: () => void } } }).connection?.stream?.destroy?.();
    this.retryLater();
  }

  private retryLater(): void {
    if (this.closed) return;
    setTimeout(() => this.ensureListening(), RECONNECT_DELAY_MS).unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.starting;
    if (this.heartbeat !== null) clearInterval(this.heartbeat);
    this.heartbeat = null;
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
