import pg from 'pg';
import type { Kafka, Producer } from 'kafkajs';
import type { Logger } from 'pino';
import type { KafkaConnection } from '@tokencircuit/config';
import { createKafka, retryAtStart } from '@tokencircuit/kafka';
import { pgDatabase, type SqlDatabase } from '@tokencircuit/storage';

/**
 * The process's one set of Kafka and Postgres clients: one kafkajs client, one idempotent producer shared by
 * every module that sends, and one pg pool per database URL — each service's URL names its own login role
 * (docs/security.md), so modules that share a URL share a pool sized for all of them, and a standalone service
 * keeps its own role. Modules get databases whose close does nothing; `close` ends everything, once, after the
 * modules have stopped.
 */
export class Infrastructure {
  private readonly pools = new Map<string, pg.Pool>();
  private kafkaClient: Kafka | null = null;
  private producer: Promise<Producer> | null = null;

  /** `kafkaConnection` may be left out by a process that only uses Postgres (the CLI's replay). */
  constructor(
    readonly kafkaConnection: KafkaConnection | undefined,
    private readonly clientId: string,
    private readonly log?: Logger,
  ) {}

  get kafka(): Kafka {
    if (!this.kafkaConnection) throw new Error('composition: this infrastructure was built without Kafka');
    this.kafkaClient ??= createKafka(this.kafkaConnection, this.clientId);
    return this.kafkaClient;
  }

  /**
   * The pool of `url` (and of `extra.options`, e.g. a replay schema's search_path), `connections` more connections
   * allowed in it for the caller. The services' pools wait for a connection as long as it takes; the CLI gives up
   * on a server that does not answer (`extra.connectionTimeoutMillis`).
   */
  pool(
    url: string,
    connections: number,
    extra: { readonly options?: string; readonly connectionTimeoutMillis?: number } = {},
  ): pg.Pool {
    const key = extra.options === undefined ? url : `${url}\n${extra.options}`;
    const pool = this.pools.get(key);
    if (pool) {
      // pg reads `max` at each checkout: a second module on the same role widens the pool by its own share.
      (pool.options as { max: number }).max += connections;
      return pool;
    }
    const created = new pg.Pool({ connectionString: url, max: connections, ...extra });
    this.pools.set(key, created);
    return created;
  }

  /** A database over the pool of `url` that the module cannot close (the infrastructure does). */
  database(url: string, connections: number, extra: Parameters<Infrastructure['pool']>[2] = {}): SqlDatabase {
    return { ...pgDatabase(this.pool(url, connections, extra)), close: async () => undefined };
  }

  /**
   * The process's idempotent producer, connected on first use. It asks for a producer id on connect: retried
   * while a new cluster is electing (exit 3 when it never answers, startFailureOf).
   */
  sender(who: string): Promise<Producer> {
    this.producer ??= (async () => {
      const producer = this.kafka.producer({
        idempotent: true,
        maxInFlightRequests: 1,
        allowAutoTopicCreation: false,
      });
      await retryAtStart(`the ${who} producer`, () => producer.connect(), {
        onRetry: (error, attempt, delayMs) =>
          this.log?.warn({ err: error, attempt, delayMs }, `kafka not ready for the ${who} yet; retrying`),
      });
      return producer;
    })();
    return this.producer;
  }

  async close(): Promise<void> {
    const producer = this.producer;
    this.producer = null;
    await producer?.then((p) => p.disconnect()).catch(() => undefined);
    for (const pool of this.pools.values()) await pool.end().catch(() => undefined);
    this.pools.clear();
  }
}
