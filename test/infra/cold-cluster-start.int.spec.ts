import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadApiConfig } from '@tokencircuit/api-http';
import {
  composeFleet,
  FLEET_MODULES,
  kafkaPostgresAdapters,
  loadConnectedSettings,
  type Fleet,
} from '@tokencircuit/composition';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { createKafka, loadTopicSettings, prepareTopics } from '@tokencircuit/kafka';
import { KafkaEpisodeSource, loadNotifierConfig, NotifierMetrics } from '@tokencircuit/notifier-service';
import { pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { lastLine, runLauncher } from '../support/local-kafka-launcher.js';

// Issue 27, point 3: a cold CI run crashed the notifier with "This is not the correct coordinator for this
// group" (admin.fetchOffsets): a brand-new cluster answers before the coordinator of a new group is elected,
// before a new topic's leaders are known everywhere. Here a brand-new broker (scripts/kafka/kafka.sh on free
// ports, an empty state folder: the shared broker is never touched) is started and every connected service is
// started against it at once, in the order the connected `npm start` uses, three times over.

const CYCLES = 3;
/** Episode sources started at once on every fresh cluster, each in a new group (groups spread over __consumer_offsets). */
const NEW_GROUPS = 8;
const LOG = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });
}
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

/** A broker port P such that P and P+1 (the controller) are both free right now. */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const probe = await listen(0);
    const port = (probe.address() as { port: number }).port;
    await close(probe);
    if (port > 65_000) continue;
    try {
      await close(await listen(port + 1));
      return port;
    } catch {
      // port+1 is in use: try another pair
    }
  }
  throw new Error('found no free pair of adjacent ports in 20 attempts');
}

describe('every connected service starts on a brand-new cluster at once (issue 27, point 3)', () => {
  let db: TestDatabase;
  const scratch: string[] = [];
  let launcherEnv: NodeJS.ProcessEnv | undefined;
  beforeAll(async () => {
    db = await createTestDatabase('tc_cold_cluster');
  });
  afterAll(async () => {
    if (launcherEnv) await runLauncher(['stop'], launcherEnv);
    await db?.drop();
    for (const dir of scratch) rmSync(dir, { recursive: true, force: true });
  });

  it(`starts projector, decision service, notifier and API the moment the broker answers, ${CYCLES} times`, async () => {
    for (let cycle = 1; cycle <= CYCLES; cycle++) {
      const state = mkdtempSync(join(tmpdir(), 'tc-cold-cluster-'));
      scratch.push(state);
      launcherEnv = {
        ...process.env,
        TC_KAFKA_PORT: String(await freePortPair()),
        TC_KAFKA_STATE_DIR: state,
        TC_KAFKA_STOP_TIMEOUT: '10',
      };
      const launching = performance.now();
      const started = await runLauncher(['start'], launcherEnv);
      const launched = performance.now();
      expect(started.code, started.stderr).toBe(0);
      const brokers = lastLine(started.stdout);

      const env: Record<string, string> = {
        KAFKA_BROKERS: brokers,
        DATABASE_URL: db.url,
        TOKENCIRCUIT_API_KEYS: 'demo:cold-cluster-key-0123456789',
        TOKENCIRCUIT_NOTIFY_FILE: 'examples/notify.json',
        PD_ROUTING_KEY: 'routing-key-0123456789abcdef0123',
        SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T0/B0/x',
        WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
        PROJECTOR_SESSION_TIMEOUT_MS: '10000',
        PROJECTOR_HTTP_PORT: '0',
        DECISION_HTTP_PORT: '0',
        NOTIFIER_HTTP_PORT: '0',
        API_HTTP_PORT: '0',
        LOG_LEVEL: 'silent',
      };
      let fleet: Fleet | undefined;
      try {
        // As the connected runtime: topics, then projector, decision service, notifier, API.
        await prepareTopics(loadApiConfig(env).kafka, loadTopicSettings(env), LOG);
        // The reported crash: the notifier's episode source fixing its starting offsets (fetchOffsets, setOffsets)
        // while the coordinators of new groups are still being elected. Many new groups at once widen the window.
        const sourceConfig = loadNotifierConfig(env);
        const sources = Array.from(
          { length: NEW_GROUPS },
          (_, i) =>
            new KafkaEpisodeSource(
              createKafka(sourceConfig.kafka, `cold-${i}`),
              pgDatabase(db.pool),
              { topic: sourceConfig.EPISODES_TOPIC, groupId: `cold-cluster-${cycle}-${i}`, startFrom: 'latest' },
              new NotifierMetrics(),
              LOG,
              brokers,
            ),
        );
        try {
          await Promise.all(
            sources.map((source) =>
              source.start(
                async () => undefined,
                () => undefined,
              ),
            ),
          );
        } finally {
          await Promise.all(sources.map((source) => source.stop().catch(() => undefined)));
        }
        // The connected `npm start`'s composition: projector, decision service, notifier, API, in that order.
        const settings = loadConnectedSettings(env, FLEET_MODULES);
        fleet = await composeFleet(
          settings,
          await kafkaPostgresAdapters(settings, LOG, { clientId: 'cold-cluster' }),
          FLEET_MODULES,
          DEFAULT_CONFIG,
          LOG,
        );
        const projectorConfig = settings.projector!;
        const notifierConfig = settings.notifier!.settings;
        const apiConfig = settings.api!;

        console.info(
          `[cold cluster] cycle ${cycle}: broker ready in ${((launched - launching) / 1000).toFixed(1)} s, every service up ${((performance.now() - launched) / 1000).toFixed(1)} s later`,
        );
        // Up, not merely constructed: the notifier's group has its starting offsets, the projector a member.
        const admin = createKafka(apiConfig.kafka, 'cold-cluster-check').admin();
        await admin.connect();
        try {
          const [committed] = await admin.fetchOffsets({
            groupId: notifierConfig.NOTIFIER_GROUP_ID,
            topics: [notifierConfig.EPISODES_TOPIC],
          });
          // Every partition of the topic has a committed offset (-1: none yet); fetchOffsets lists each partition.
          const partitions = await admin.fetchTopicOffsets(notifierConfig.EPISODES_TOPIC);
          expect(partitions.length, `cycle ${cycle}: the episodes topic has partitions`).toBeGreaterThan(0);
          expect(
            (committed?.partitions ?? [])
              .filter((p) => p.offset !== '-1')
              .map((p) => p.partition)
              .sort((a, b) => a - b),
            `cycle ${cycle}: the notifier committed a starting offset on every partition`,
          ).toEqual(partitions.map((p) => p.partition).sort((a, b) => a - b));
          const deadline = Date.now() + 30_000;
          let members = 0;
          while (members === 0 && Date.now() < deadline) {
            const { groups } = await admin.describeGroups([projectorConfig.PROJECTOR_GROUP_ID]);
            members = groups[0]?.members.length ?? 0;
            if (members === 0) await new Promise((resolve) => setTimeout(resolve, 200));
          }
          expect(members, `cycle ${cycle}: the projector joined its group`).toBe(1);
        } finally {
          await admin.disconnect();
        }
      } finally {
        // In the fleet's stop order, as `npm start` stops; the cluster is thrown away next.
        await fleet?.stop().catch(() => undefined);
        const stopped = await runLauncher(['stop'], launcherEnv);
        expect(stopped.code, stopped.stderr).toBe(0);
      }
    }
  }, 300_000);
});
