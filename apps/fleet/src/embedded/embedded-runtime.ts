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
import { loadProjectorSettings, ProjectorModule } from '@tokencircuit/projector-service';
import { listenOrExplain, METRICS_REGISTRY } from '@tokencircuit/service-kit';
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
import { forgetApiUrl, recordApiUrl } from './api-url-file.js';
import { anchorsFile, embeddedAnchorKey, FileAnchorSink } from './embedded-anchors.js';

export const EMBEDDED_GROUP = 'tokencircuit-embedded';

export interface EmbeddedRuntime {
  readonly url: string;
  readonly bus: InProcessBus;
  readonly db: SqlDatabase;
  stop(): Promise<void>;
}

/**
 * Composition root of the embedded mode: the projector, decision and API modules that run in production,
 * with the same settings, on PGlite and the in-process bus instead of Postgres and Kafka. Only the ports
 * differ; the projector and decision service have no HTTP port of their own here, their metrics are
 * served at the API's /metrics.
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
  // One PGlite for the three modules: each would close its database on shutdown; the runtime does, once.
  const shared: SqlDatabase = { ...db, close: async () => undefined };
  const bus = new InProcessBus(TOPICS.agentEvents.partitions);

  const contexts: INestApplicationContext[] = [];
  let notifier: INestApplicationContext | null = null;
  const start = async (module: Parameters<typeof NestFactory.createApplicationContext>[0]) => {
    const context = await NestFactory.createApplicationContext(module, { logger: false });
    await context.init();
    contexts.push(context);
    return context.get<Registry>(METRICS_REGISTRY);
  };
  try {
    const projectorMetrics = await start(
      ProjectorModule.forRoot({
        ports: {
          db: shared,
          source: new BusEventSource(bus, TOPICS.agentEvents.name),
          deadLetters: new LoggingDeadLetterSink(log),
        },
        settings: loadProjectorSettings({
          PROJECTOR_GROUP_ID: EMBEDDED_GROUP,
          AGENT_EVENTS_TOPIC: TOPICS.agentEvents.name,
        }),
        policy,
        log: log.child({ app: 'projector' }),
      }),
    );
    const decisionMetrics = await start(
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
    );
    // The notifier, when a routing file is named: fed from episode_events (same PGlite), woken by the bus.
    const notifierMetrics: Registry[] = [];
    if (config.notifier) {
      const { settings, notify } = config.notifier;
      const notifierLog = log.child({ app: 'notifier' });
      notifier = await NestFactory.createApplicationContext(
        NotifierModule.forRoot({
          ports: {
            db: shared,
            source: (metrics) =>
              new TableEpisodeSource(
                shared,
                settings.NOTIFIER_POLL_INTERVAL_MS,
                settings.NOTIFIER_START_FROM,
                metrics,
                notifierLog,
                (wake) =>
                  bus.subscribe(TOPICS.episodes.name, async () => {
                    wake();
                  }),
              ),
            deadLetters: new LoggingDeliveryDeadLetters(notifierLog),
          },
          settings,
          notify,
          log: notifierLog,
        }),
        { logger: false },
      );
      // Not in `contexts`: stop() closes the modules by position there.
      await notifier.init();
      notifierMetrics.push(notifier.get<Registry>(METRICS_REGISTRY));
    }
    const app: NestFastifyApplication = await createApiApp({
      config: { apiKeys: parseApiKeys(embeddedApiKeys(config)), ...config.api },
      policy,
      log,
      publisher: new BusAgentEventPublisher(bus),
      db: sqlApiDatabase(shared),
      metrics: [projectorMetrics, decisionMetrics, ...notifierMetrics],
      liveFeed: new BusLiveFeed(bus),
    });
    contexts.push(app);
    await listenOrExplain(() => app.listen(config.API_HTTP_PORT, config.API_HTTP_HOST), {
      port: config.API_HTTP_PORT,
      host: config.API_HTTP_HOST,
      variable: 'API_HTTP_PORT',
    });
    const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
    recordApiUrl(config, url);
    return {
      url,
      bus,
      db,
      async stop() {
        // The API first (no new events), then the projector, then the decision service drains what it has.
        const [projector, decision, api] = contexts;
        for (const context of [api, projector, decision]) await context?.close();
        // Last: it sends what the decision service published while draining.
        await notifier?.close();
        await db.close();
        forgetApiUrl(config, url);
      },
    };
  } catch (error) {
    for (const context of contexts.reverse()) await context.close().catch(() => undefined);
    await notifier?.close().catch(() => undefined);
    await db.close().catch(() => undefined);
    throw error;
  }
}
