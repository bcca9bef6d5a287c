import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Logger } from 'pino';
import { expirySweepIntervalMs, type TokenCircuitConfig } from '@tokencircuit/governance';
import {
  AuditAnchorer,
  DecisionLoop,
  DecisionMetrics,
  OutboxRelay,
  OutboxRetention,
  type AnchorSink,
  type InterventionPublisher,
} from '@tokencircuit/decision-relay';
import { HealthController, METRICS_REGISTRY, READINESS_PROBE } from '@tokencircuit/service-kit';
import {
  countPendingBudgetPublications,
  countPendingOutbox,
  pingDatabase,
  type SqlDatabase,
} from '@tokencircuit/storage';
import type { DecisionSettings } from './decision-config.js';
import type { OutboxNotifications } from './outbox-notifications.port.js';
import { SpendExpirySweep } from './spend-expiry-sweep.js';
import { BudgetPublicationRelay } from './budget-publication-relay.js';
import { interventionTracer } from '@tokencircuit/tracing';

/** The decision service's ports: built by a composition root (Kafka + Postgres, or the bus + PGlite). */
export interface DecisionPorts {
  /** The module closes it on shutdown. */
  readonly db: SqlDatabase;
  /** The module closes it on shutdown, when it can be closed. */
  readonly publisher: InterventionPublisher & { close?(): Promise<void> };
  readonly notifications: OutboxNotifications;
  /** Where audit anchors go (the audit-anchors topic, or a file in embedded mode); none = no anchoring. */
  readonly anchors?: AnchorSink;
}

export interface DecisionModuleOptions {
  readonly ports: DecisionPorts;
  readonly settings: DecisionSettings;
  readonly policy: TokenCircuitConfig;
  readonly log: Logger;
}

const DECISION_RUNTIME = Symbol('DECISION_RUNTIME');

interface DecisionRuntime {
  readonly loop: DecisionLoop;
  readonly ports: DecisionPorts;
  readonly settings: DecisionSettings;
  /** Null when retention is off (DECISION_OUTBOX_RETENTION_HOURS=0). */
  readonly retention: OutboxRetention | null;
  readonly metrics: DecisionMetrics;
  readonly log: Logger;
  /** Null without an anchor key or sink: the start-up log says anchoring is off. */
  readonly anchorer: AuditAnchorer | null;
  /** Null without budgets in the policy: nothing is ever reserved. */
  readonly spendExpiry: { readonly sweep: SpendExpirySweep; readonly intervalMs: number } | null;
  /** Publishes budget crossings nobody published (budget_publications), on the poll interval. */
  readonly budgetRelay: BudgetPublicationRelay;
}

/** How often expired outbox rows are purged: often enough that each purge stays a few small deletes. */
const PURGE_INTERVAL_MS = 60_000;

@Injectable()
class DecisionLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly timers: NodeJS.Timeout[] = [];
  /** The budget publication round in flight, if any: shutdown waits for it before closing the producer. */
  private budgetRound: Promise<void> | null = null;

  constructor(@Inject(DECISION_RUNTIME) private readonly runtime: DecisionRuntime) {}

  async onApplicationBootstrap(): Promise<void> {
    const { loop, ports, settings, retention, metrics, log, anchorer, spendExpiry, budgetRelay } = this.runtime;
    // The poll is the safety net: a missed notification, a lost connection, rows left by a crashed instance.
    this.timers.push(setInterval(() => loop.wake(), settings.DECISION_POLL_INTERVAL_MS));
    await ports.notifications.listen((ids) => loop.wake(ids));
    loop.wake(); // rows left by a previous run are published first
    if (retention) {
      const purge = setInterval(() => {
        retention
          .purge()
          .then((deleted) => {
            metrics.purged.inc(deleted);
            if (deleted > 0) log.info({ deleted }, 'expired outbox rows purged');
          })
          .catch((error: unknown) => log.warn({ err: error }, 'outbox purge failed; will try again'));
      }, PURGE_INTERVAL_MS);
      purge.unref();
      this.timers.push(purge);
    }
    if (spendExpiry) {
      const expire = setInterval(() => {
        spendExpiry.sweep
          .sweep(new Date())
          .then((released) => {
            if (released > 0) log.info({ released }, 'unsettled spend reservations expired');
          })
          .catch((error: unknown) => log.warn({ err: error }, 'spend reservation sweep failed; will try again'));
      }, spendExpiry.intervalMs);
      expire.unref();
      this.timers.push(expire);
    }
    // Always on, whatever this service's policy: the API's or the projector's may have budgets. One round at a time.
    const relayBudgets = setInterval(() => {
      if (this.budgetRound) return;
      this.budgetRound = budgetRelay
        .round()
        .then((published) => {
          metrics.budgetPublished.inc(published);
          if (published > 0) log.info({ published }, 'budget crossings published');
        })
        .catch((error: unknown) => {
          metrics.budgetFailures.inc();
          log.warn({ err: error }, 'budget publication round failed; will try again');
        })
        .finally(() => {
          this.budgetRound = null;
        });
    }, settings.DECISION_POLL_INTERVAL_MS);
    relayBudgets.unref();
    this.timers.push(relayBudgets);
    if (anchorer) {
      const anchor = setInterval(() => void this.anchorRound(anchorer), settings.DECISION_ANCHOR_INTERVAL_MS);
      anchor.unref();
      this.timers.push(anchor);
      log.info(
        { keyId: settings.TOKENCIRCUIT_ANCHOR_KEY?.keyId, intervalMs: settings.DECISION_ANCHOR_INTERVAL_MS },
        'audit anchors on',
      );
    } else {
      log.warn(
        'audit anchors off: set TOKENCIRCUIT_ANCHOR_KEY (tokencircuit anchors keygen) so verify can detect removed or rewritten newest rows',
      );
    }
  }

  private async anchorRound(anchorer: AuditAnchorer): Promise<void> {
    try {
      const anchors = await anchorer.anchor();
      if (anchors.length > 0) this.runtime.log.debug({ tenants: anchors.length }, 'audit anchors published');
    } catch (error) {
      this.runtime.log.warn({ err: error }, 'audit anchor round failed; will try again');
    }
  }

  async onApplicationShutdown(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    const { loop, ports, anchorer } = this.runtime;
    await ports.notifications.close();
    await loop.stop();
    await this.budgetRound;
    // What this instance recorded last is anchored before the producer closes.
    if (anchorer) await this.anchorRound(anchorer);
    await ports.publisher.close?.();
    await ports.db.close();
  }
}

/** Decision service: outbox → decide → audit trail → intervention publisher. Same module in every mode. */
@Module({})
export class DecisionModule {
  static forRoot({ ports, settings, policy, log }: DecisionModuleOptions): DynamicModule {
    return {
      module: DecisionModule,
      controllers: [HealthController],
      providers: [
        DecisionMetrics,
        {
          provide: DECISION_RUNTIME,
          inject: [DecisionMetrics],
          useFactory: (metrics: DecisionMetrics): DecisionRuntime => {
            const relay = new OutboxRelay(ports.db, ports.publisher, policy, settings.DECISION_BATCH_SIZE);
            metrics.countPendingWith(() => countPendingOutbox(ports.db));
            metrics.countBudgetPendingWith(() => countPendingBudgetPublications(ports.db));
            return {
              loop: new DecisionLoop(
                relay,
                metrics,
                settings.DECISION_BATCH_SIZE,
                log,
                interventionTracer(ports.db, (error) => log.warn({ err: error }, 'intervention spans not recorded')),
              ),
              ports,
              settings,
              retention:
                settings.DECISION_OUTBOX_RETENTION_HOURS > 0
                  ? new OutboxRetention(ports.db, settings.DECISION_OUTBOX_RETENTION_HOURS)
                  : null,
              metrics,
              log,
              anchorer:
                settings.TOKENCIRCUIT_ANCHOR_KEY && ports.anchors
                  ? new AuditAnchorer(ports.db, ports.anchors, settings.TOKENCIRCUIT_ANCHOR_KEY, (tenant, reason) =>
                      log.error(
                        { tenant, reason },
                        'audit trail tampered: not anchoring this tenant again; run tokencircuit verify',
                      ),
                    )
                  : null,
              budgetRelay: new BudgetPublicationRelay(ports.db, ports.publisher, settings.DECISION_BATCH_SIZE),
              spendExpiry: policy.spend
                ? { sweep: new SpendExpirySweep(ports.db), intervalMs: expirySweepIntervalMs(policy.spend) }
                : null,
            };
          },
        },
        DecisionLifecycle,
        { provide: METRICS_REGISTRY, inject: [DecisionMetrics], useFactory: (m: DecisionMetrics) => m.registry },
        {
          provide: READINESS_PROBE,
          useFactory: () => async () => {
            const database = await pingDatabase(ports.db);
            return { ready: database, database };
          },
        },
      ],
    };
  }
}
