import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Logger } from 'pino';
import type { NotifyConfig } from '@tokencircuit/notifier';
import { HealthController, METRICS_REGISTRY, READINESS_PROBE } from '@tokencircuit/service-kit';
import { pendingDeliveriesBySink, pingDatabase, type SqlDatabase } from '@tokencircuit/storage';
import { deliveryTracer } from '@tokencircuit/tracing';
import type { DeliveryDeadLetters } from './delivery-dead-letters.port.js';
import { DeliveryDispatcher } from './delivery-dispatcher.js';
import type { EpisodeSource } from './episode-source.port.js';
import type { Sender } from './http-sender.js';
import type { NotifierSettings } from './notifier-config.js';
import { NotifierMetrics } from './notifier-metrics.js';
import { recordSteps } from './record-steps.js';

/** The notifier's ports: built by a composition root (Kafka + Postgres, or the bus + PGlite). */
export interface NotifierPorts {
  /** The module closes it on shutdown. */
  readonly db: SqlDatabase;
  /** Built with the module's metrics (see NotifierModule.forRoot). */
  readonly source: (metrics: NotifierMetrics) => EpisodeSource;
  readonly deadLetters: DeliveryDeadLetters;
  /** The HTTP sender; the production one unless a host brings its own transport. */
  readonly send?: Sender;
}

export interface NotifierModuleOptions {
  readonly ports: NotifierPorts;
  readonly settings: NotifierSettings;
  /** The validated routing file (TOKENCIRCUIT_NOTIFY_FILE), secrets read. */
  readonly notify: NotifyConfig;
  readonly log: Logger;
}

const NOTIFIER_RUNTIME = Symbol('NOTIFIER_RUNTIME');

interface NotifierRuntime {
  readonly source: EpisodeSource;
  readonly dispatcher: DeliveryDispatcher;
  readonly options: NotifierModuleOptions;
  readonly metrics: NotifierMetrics;
}

@Injectable()
class NotifierLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;

  constructor(@Inject(NOTIFIER_RUNTIME) private readonly runtime: NotifierRuntime) {}

  async onApplicationBootstrap(): Promise<void> {
    const { source, dispatcher, options, metrics } = this.runtime;
    const { notify, settings, log } = options;
    await source.start(
      async (tx, steps) => {
        const recorded = await recordSteps(tx, notify, steps);
        for (const delivery of recorded) metrics.enqueued.inc({ sink: delivery.sink });
      },
      () => dispatcher.wake(),
    );
    // The poll is the safety net and the clock of retries: due deliveries are found within an interval.
    this.timer = setInterval(() => dispatcher.wake(), settings.NOTIFIER_POLL_INTERVAL_MS);
    dispatcher.wake(); // deliveries left by a previous run go first
    // Sink names and types only: URLs and keys are secrets.
    log.info(
      {
        source: source.description,
        sinks: [...notify.sinks.values()].map((s) => `${s.name}:${s.type}`),
        routes: notify.routes.length,
      },
      'notifier started',
    );
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    const { source, dispatcher, options } = this.runtime;
    await source.stop();
    await dispatcher.stop();
    await options.ports.deadLetters.close?.();
    await options.ports.db.close();
  }
}

/** Notifier: episode steps → routes → durable deliveries → PagerDuty, Slack, webhooks, Alertmanager. Same module in every mode. */
@Module({})
export class NotifierModule {
  static forRoot(options: NotifierModuleOptions): DynamicModule {
    const { ports, settings, notify, log } = options;
    return {
      module: NotifierModule,
      controllers: [HealthController],
      providers: [
        NotifierMetrics,
        {
          provide: NOTIFIER_RUNTIME,
          inject: [NotifierMetrics],
          useFactory: (metrics: NotifierMetrics): NotifierRuntime => {
            metrics.watch([...notify.sinks.keys()], () => pendingDeliveriesBySink(ports.db));
            return {
              source: ports.source(metrics),
              dispatcher: new DeliveryDispatcher({
                db: ports.db,
                notify,
                settings,
                deadLetters: ports.deadLetters,
                metrics,
                log,
                ...(ports.send ? { send: ports.send } : {}),
                traceDelivery: deliveryTracer(ports.db, (error) =>
                  log.warn({ err: error }, 'delivery span not recorded: its trace context could not be read'),
                ),
              }),
              options,
              metrics,
            };
          },
        },
        NotifierLifecycle,
        { provide: METRICS_REGISTRY, inject: [NotifierMetrics], useFactory: (m: NotifierMetrics) => m.registry },
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
