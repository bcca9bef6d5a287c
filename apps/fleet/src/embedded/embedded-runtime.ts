import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import type { Registry } from 'prom-client';
import { InProcessBus } from '@tokencircuit/bus';
import { TOPICS } from '@tokencircuit/contracts';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { migratePglite, pgliteDatabase, type SqlDatabase } from '@tokencircuit/storage';
import { createApiApp, parseApiKeys, sqlApiDatabase } from '@tokencircuit/api-http';
import { DecisionModule } from '@tokencircuit/decision-service';
import { ProjectorModule } from '@tokencircuit/projector-service';
import { composeModules, METRICS_REGISTRY } from '@tokencircuit/service-kit';
import { NotifierModule, TableEpisodeSource } from '@tokencircuit/notifier-service';
import {
  BusAgentEventPublisher,
  BusEventSource,
  BusInterventionPublisher,
  BusLiveFeed,
  LoggingDeadLetterSink,
  LoggingDeliveryDeadLetters,
  PgliteOutboxNotifications,
} from './bus-adapters.js';
import { embeddedApiKeys, type EmbeddedConfig } from './embedded-config.js';
import { FLEET_STOP_ORDER, fleetModules } from '../fleet-order.js';
import { listening } from '../listening.js';
import { forgetApiUrl, recordApiUrl } from './api-url-file.js';
import { anchorsFile, embeddedAnchorKey, FileAnchorSink } from './embedded-anchors.js';

export { EMBEDDED_GROUP } from './embedded-config.js';

export interface EmbeddedRuntime {
  readonly url: string;
  readonly bus: InProcessBus;
  readonly db: SqlDatabase;
  /** Every module's Nest context by name (projector, decision, notifier when configured, api). */
  readonly contexts: ReadonlyMap<string, INestApplicationContext>;
  stop(): Promise<void>;
}

/** A module's context, created and initialised (no HTTP port of its own here). */
async function initialised(module: Parameters<typeof NestFactory.createApplicationContext>[0]) {
  const context = await NestFactory.createApplicationContext(module, { logger: false });
  await context.init();
  return context;
}

/**
 * Composition root of the embedded mode: the projector, decision, notifier and API modules that run in
 * production, with the same settings from the same variables, on PGlite and the in-process bus instead of
 * Postgres and Kafka, started and stopped in the fleet's order (fleet-order.ts). Only the ports differ; the
 * projector, decision service and notifier have no HTTP port of their own here, their metrics are served at
 * the API's /metrics.
 */
export async function startEmbedded(
  config: EmbeddedConfig,
  policy: TokenCircuitConfig,
  log: Logger,
): Promise<EmbeddedRuntime> {
  mkdirSync(config.pgliteDir, { recursive: true });
  const pglite = new PGlite(config.pgliteDir);
  await migratePglite(pglite);
  const db = pgliteDatabase(pglite);
  // One PGlite for every module: each would close its database on shutdown; the runtime does, once.
  const shared: SqlDatabase = { ...db, close: async () => undefined };
  // Batches as large as the projector's chunks, as a Kafka fetch is cut into them when connected.
  const bus = new InProcessBus(TOPICS.agentEvents.partitions, config.projector.PROJECTOR_CHUNK_SIZE);
  const metrics: Registry[] = [];
  const withMetrics = (context: INestApplicationContext) => {
    metrics.push(context.get<Registry>(METRICS_REGISTRY));
    return context;
  };
  const notifierLog = log.child({ app: 'notifier' });
  const notifier = config.notifier;
  let api: NestFastifyApplication | undefined;

  try {
    const fleet = await composeModules(
      fleetModules({
        projector: {
          start: async () =>
            withMetrics(
              await initialised(
                ProjectorModule.forRoot({
                  ports: {
                    db: shared,
                    source: new BusEventSource(bus, TOPICS.agentEvents.name),
                    deadLetters: new LoggingDeadLetterSink(log),
                  },
                  settings: config.projector,
                  policy,
                  log: log.child({ app: 'projector' }),
                }),
              ),
            ),
        },
        decision: {
          start: async () =>
            withMetrics(
              await initialised(
                DecisionModule.forRoot({
                  ports: {
                    db: shared,
                    publisher: new BusInterventionPublisher(bus),
                    notifications: new PgliteOutboxNotifications(pglite),
                    anchors: new FileAnchorSink(anchorsFile(config)),
                  },
                  settings: { ...config.decision, TOKENCIRCUIT_ANCHOR_KEY: embeddedAnchorKey(config) },
                  policy,
                  log: log.child({ app: 'decision' }),
                }),
              ),
            ),
        },
        // With a routing file: fed from episode_events (same PGlite), woken by the bus.
        ...(notifier && {
          notifier: {
            start: async () =>
              withMetrics(
                await initialised(
                  NotifierModule.forRoot({
                    ports: {
                      db: shared,
                      source: (notifierMetrics) =>
                        new TableEpisodeSource(
                          shared,
                          notifier.settings.NOTIFIER_POLL_INTERVAL_MS,
                          notifier.settings.NOTIFIER_START_FROM,
                          notifierMetrics,
                          notifierLog,
                          (wake) =>
                            bus.subscribe(TOPICS.episodes.name, async () => {
                              wake();
                            }),
                        ),
                      deadLetters: new LoggingDeliveryDeadLetters(notifierLog),
                    },
                    settings: notifier.settings,
                    notify: notifier.notify,
                    log: notifierLog,
                  }),
                ),
              ),
          },
        }),
        api: {
          start: async () => {
            const app = await createApiApp({
              config: { apiKeys: parseApiKeys(embeddedApiKeys(config)), ...config.api },
              policy,
              log,
              publisher: new BusAgentEventPublisher(bus),
              db: sqlApiDatabase(shared),
              metrics,
              liveFeed: new BusLiveFeed(bus),
            });
            api = await listening(app, {
              port: config.API_HTTP_PORT,
              host: config.API_HTTP_HOST,
              variable: 'API_HTTP_PORT',
            });
            return api;
          },
        },
      }),
      FLEET_STOP_ORDER,
    );
    const url = (await api!.getUrl()).replace('[::1]', '127.0.0.1');
    recordApiUrl(config, url);
    return {
      url,
      bus,
      db,
      contexts: fleet.contexts,
      async stop() {
        await fleet.stop();
        await db.close();
        forgetApiUrl(config, url);
      },
    };
  } catch (error) {
    await db.close().catch(() => undefined);
    throw error;
  }
}
