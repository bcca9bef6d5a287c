import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import pg from 'pg';
import type { Logger } from 'pino';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { createKafka } from '@tokencircuit/kafka';
import { HealthController, METRICS_REGISTRY, READINESS_PROBE } from '@tokencircuit/service-kit';
import { pgDatabase, type SqlDatabase } from '@tokencircuit/storage';
import type { DecisionConfig } from './decision-config.js';
import { DecisionLoop, DecisionMetrics, OutboxRelay, OutboxRetention } from '@tokencircuit/decision-relay';
import { KafkaInterventionPublisher } from './kafka-intervention-publisher.js';
import { OutboxWakeups } from './outbox-wakeups.js';

const DECISION_RUNTIME = Symbol('DECISION_RUNTIME');

interface DecisionRuntime {
  readonly loop: DecisionLoop;
  readonly wakeups: OutboxWakeups;
  readonly db: SqlDatabase;
  /** Null when retention is off (DECISION_OUTBOX_RETENTION_HOURS=0). */
  readonly retention: OutboxRetention | null;
  readonly metrics: DecisionMetrics;
  readonly log: Logger;
  readonly close: () => Promise<void>;
}

/** How often expired outbox rows are purged: often enough that each purge stays a few small deletes. */
const PURGE_INTERVAL_MS = 60_000;

@Injectable()
class DecisionLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private purgeTimer: NodeJS.Timeout | null = null;

  constructor(@Inject(DECISION_RUNTIME) private readonly runtime: DecisionRuntime) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.runtime.wakeups.start();
    this.runtime.loop.wake(); // rows left by a previous run are published first
    const { retention, metrics, log } = this.runtime;
    if (retention) {
      this.purgeTimer = setInterval(() => {
        retention
          .purge()
          .then((deleted) => {
            metrics.purged.inc(deleted);
            if (deleted > 0) log.info({ deleted }, 'expired outbox rows purged');
          })
          .catch((error: unknown) => log.warn({ err: error }, 'outbox purge failed; will try again'));
      }, PURGE_INTERVAL_MS);
      this.purgeTimer.unref();
    }
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.purgeTimer) clearInterval(this.purgeTimer);
    await this.runtime.wakeups.stop();
    await this.runtime.loop.stop();
    await this.runtime.close();
  }
}

/** Decision service: outbox → decide → audit trail → interventions topic. */
@Module({})
export class DecisionModule {
  static forRoot(config: DecisionConfig, policy: TokenCircuitConfig, log: Logger): DynamicModule {
    return {
      module: DecisionModule,
      controllers: [HealthController],
      providers: [
        DecisionMetrics,
        {
          provide: DECISION_RUNTIME,
          inject: [DecisionMetrics],
          useFactory: async (metrics: DecisionMetrics): Promise<DecisionRuntime> => {
            const db = pgDatabase(
              new pg.Pool({ connectionString: config.DATABASE_URL, max: config.DATABASE_POOL_SIZE }),
            );
            const producer = createKafka(config.kafka, 'decision').producer({
              idempotent: true,
              maxInFlightRequests: 1,
            });
            await producer.connect();
            const relay = new OutboxRelay(
              db,
              new KafkaInterventionPublisher(producer, config.INTERVENTIONS_TOPIC, config.EPISODES_TOPIC),
              policy,
              config.DECISION_BATCH_SIZE,
            );
            metrics.countPendingWith(async () => {
              const { rows } = await db.query<{ depth: string }>(
                'SELECT count(*)::text AS depth FROM decision_outbox WHERE published_at IS NULL',
              );
              return Number(rows[0]?.depth ?? 0);
            });
            const loop = new DecisionLoop(relay, metrics, config.DECISION_BATCH_SIZE, log);
            const wakeups = new OutboxWakeups(config.DATABASE_URL, config.DECISION_POLL_INTERVAL_MS, loop.wake, log);
            const retention =
              config.DECISION_OUTBOX_RETENTION_HOURS > 0
                ? new OutboxRetention(db, config.DECISION_OUTBOX_RETENTION_HOURS)
                : null;
            return {
              loop,
              wakeups,
              db,
              retention,
              metrics,
              log,
              close: async () => {
                await producer.disconnect();
                await db.close();
              },
            };
          },
        },
        DecisionLifecycle,
        { provide: METRICS_REGISTRY, inject: [DecisionMetrics], useFactory: (m: DecisionMetrics) => m.registry },
        {
          provide: READINESS_PROBE,
          inject: [DECISION_RUNTIME],
          useFactory: (runtime: DecisionRuntime) => async () => {
            const database = await runtime.db
              .query('SELECT 1')
              .then(() => true)
              .catch(() => false);
            return { ready: database, database };
          },
        },
      ],
    };
  }
}
