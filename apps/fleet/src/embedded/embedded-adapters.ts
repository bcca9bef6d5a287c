import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { NestFactory } from '@nestjs/core';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { InProcessBus } from '@tokencircuit/bus';
import { TOPICS } from '@tokencircuit/contracts';
import { migratePglite, pgliteDatabase, type SqlDatabase } from '@tokencircuit/storage';
import { apiDatabase } from '@tokencircuit/api-http';
import type { FleetAdapters } from '@tokencircuit/composition';
import { METRICS_REGISTRY } from '@tokencircuit/service-kit';
import { TableEpisodeSource } from '@tokencircuit/notifier-service';
import {
  BusAgentEventPublisher,
  BusEventSource,
  BusInterventionPublisher,
  BusLiveFeed,
  LoggingDeadLetterSink,
  LoggingDeliveryDeadLetters,
  PgliteOutboxNotifications,
} from './bus-adapters.js';
import type { EmbeddedConfig } from './embedded-config.js';
import { anchorsFile, FileAnchorSink } from './embedded-anchors.js';

export interface EmbeddedAdapters extends FleetAdapters {
  readonly bus: InProcessBus;
  readonly db: SqlDatabase;
}

/**
 * The embedded mode's adapters: one PGlite (migrated here) and one in-process bus for every module; the
 * projector, decision service and notifier have no HTTP port of their own, their metrics are served at the
 * API's /metrics. The projector's settings are the ones read from the environment, as connected.
 */
export async function embeddedAdapters(config: EmbeddedConfig, log: Logger): Promise<EmbeddedAdapters> {
  mkdirSync(config.pgliteDir, { recursive: true });
  const pglite = new PGlite(config.pgliteDir);
  const db = pgliteDatabase(pglite);
  try {
    await migratePglite(pglite);
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
  // One PGlite for every module: each would close its database on shutdown; the adapters do, once.
  const shared: SqlDatabase = { ...db, close: async () => undefined };
  // Batches as large as the projector's chunks, as a Kafka fetch is cut into them when connected.
  const bus = new InProcessBus(TOPICS.agentEvents.partitions, config.projector.PROJECTOR_CHUNK_SIZE);
  const metrics: Registry[] = [];
  return {
    bus,
    db,
    projector: async () => ({
      db: shared,
      source: new BusEventSource(bus, TOPICS.agentEvents.name),
      deadLetters: new LoggingDeadLetterSink(log),
    }),
    decision: async () => ({
      db: shared,
      publisher: new BusInterventionPublisher(bus),
      notifications: new PgliteOutboxNotifications(pglite),
      anchors: new FileAnchorSink(anchorsFile(config)),
    }),
    // Fed from episode_events (same PGlite), woken by the bus.
    notifier: async (notifierLog) => {
      const settings = config.notifier!.settings;
      return {
        db: shared,
        source: (notifierMetrics) =>
          new TableEpisodeSource(
            shared,
            settings.NOTIFIER_POLL_INTERVAL_MS,
            settings.NOTIFIER_START_FROM,
            notifierMetrics,
            notifierLog,
            (wake) =>
              bus.subscribe(TOPICS.episodes.name, async () => {
                wake();
              }),
          ),
        deadLetters: new LoggingDeliveryDeadLetters(notifierLog),
      };
    },
    api: async () => ({
      publisher: new BusAgentEventPublisher(bus),
      db: apiDatabase(shared),
      metrics,
      liveFeed: new BusLiveFeed(bus),
    }),
    async host(_name, module) {
      const context = await NestFactory.createApplicationContext(module, { logger: false });
      await context.init();
      metrics.push(context.get<Registry>(METRICS_REGISTRY));
      return context;
    },
    close: () => db.close(),
  };
}
