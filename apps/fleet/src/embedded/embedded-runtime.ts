import { mkdirSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { Logger } from 'pino';
import { InProcessBus } from '@tokencircuit/bus';
import { TOPICS } from '@tokencircuit/contracts';
import { DecisionLoop, DecisionMetrics, OutboxRelay } from '@tokencircuit/decision-relay';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { ProjectionPipeline } from '@tokencircuit/projection';
import { migratePglite, pgliteDatabase, type SqlDatabase } from '@tokencircuit/storage';
import { createApiApp } from '@tokencircuit/api-http';
import { parseApiKeys } from '@tokencircuit/api-http';
import { sqlApiDatabase } from '@tokencircuit/api-http';
import {
  BusAgentEventPublisher,
  BusInterventionPublisher,
  BusLiveFeed,
  LoggingDeadLetterSink,
} from './bus-adapters.js';
import { embeddedApiKeys, type EmbeddedConfig } from './embedded-config.js';

export const EMBEDDED_GROUP = 'tokencircuit-embedded';
const DECISION_BATCH = 200;

export interface EmbeddedRuntime {
  readonly url: string;
  readonly bus: InProcessBus;
  readonly db: SqlDatabase;
  stop(): Promise<void>;
}

/**
 * Projector, decision service and API in one process on PGlite with the in-process bus: the same
 * migrations, the same pipeline, relay and HTTP module as production, only the ports differ.
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

  const bus = new InProcessBus(TOPICS.agentEvents.partitions);
  const { rows } = await db.query<{ partition: number; next_offset: string }>(
    'SELECT partition, next_offset::text AS next_offset FROM projector_checkpoints WHERE consumer_group = $1 AND topic = $2',
    [EMBEDDED_GROUP, TOPICS.agentEvents.name],
  );
  bus.resume(TOPICS.agentEvents.name, new Map(rows.map((r) => [r.partition, BigInt(r.next_offset)])));

  const deadLetters = new LoggingDeadLetterSink(log);
  const pipeline = new ProjectionPipeline(db, deadLetters, policy, EMBEDDED_GROUP);
  const relay = new OutboxRelay(db, new BusInterventionPublisher(bus), policy, DECISION_BATCH);
  const loop = new DecisionLoop(relay, new DecisionMetrics(), DECISION_BATCH, log);
  bus.subscribe(TOPICS.agentEvents.name, async (records) => {
    const result = await pipeline.process(records);
    if (result.outbox > 0) loop.wake();
  });
  const poll = setInterval(loop.wake, 1_000);
  loop.wake(); // decisions left pending by an earlier run

  const apiDb = sqlApiDatabase({ ...db, close: async () => undefined }); // the runtime closes PGlite, once
  const app: NestFastifyApplication = await createApiApp({
    config: { apiKeys: parseApiKeys(embeddedApiKeys(config)), API_MAX_BODY_BYTES: 4 * 1024 * 1024 },
    policy,
    log,
    publisher: new BusAgentEventPublisher(bus),
    db: apiDb,
    liveFeed: new BusLiveFeed(bus),
  });
  await app.listen(config.API_HTTP_PORT, config.API_HTTP_HOST);
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');

  return {
    url,
    bus,
    db,
    async stop() {
      clearInterval(poll);
      await app.close();
      await loop.stop();
      await db.close();
    },
  };
}
