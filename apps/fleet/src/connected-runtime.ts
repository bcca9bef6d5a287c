import pino from 'pino';
import { NestFactory } from '@nestjs/core';
import type { INestApplication } from '@nestjs/common';
import { loadPolicy } from '@tokencircuit/config';
import { checkInfrastructure, listenOrExplain } from '@tokencircuit/service-kit';
import { createApiApp, kafkaPostgresApiPorts, loadApiConfig } from '@tokencircuit/api-http';
import { kafkaPostgresDecisionModule, loadDecisionConfig } from '@tokencircuit/decision-service';
import { kafkaPostgresNotifierModule, loadNotifierConfig } from '@tokencircuit/notifier-service';
import { kafkaPostgresProjectorModule, loadProjectorConfig } from '@tokencircuit/projector-service';

/**
 * Projector, decision service and API in one process against real Kafka and Postgres — each the
 * production Nest app with its own config and health port. For scale, run them as separate processes.
 */
export async function startConnected(env: Record<string, string | undefined>): Promise<void> {
  const projectorConfig = loadProjectorConfig(env);
  const decisionConfig = loadDecisionConfig(env);
  const apiConfig = loadApiConfig(env);
  // Validated before anything starts: a bad routing file stops the start with exit 2, like any config.
  const notifierConfig = env.TOKENCIRCUIT_NOTIFY_FILE ? loadNotifierConfig(env) : null;
  const policy = loadPolicy(apiConfig.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: apiConfig.LOG_LEVEL, base: { app: 'fleet' } });

  // Never creates nor migrates (issue 27): a mistyped DATABASE_URL once became a second, empty fleet in the
  // same projector group. `npm run migrate` creates and migrates; here a missing or unmigrated database is exit 4.
  await checkInfrastructure(
    env,
    { kafka: apiConfig.kafka, databaseUrl: apiConfig.DATABASE_URL },
    log.child({ app: 'topics' }),
  );

  const apps: INestApplication[] = [];
  try {
    const projector = await NestFactory.create(
      await kafkaPostgresProjectorModule(projectorConfig, policy, log.child({ app: 'projector' })),
      { logger: false },
    );
    apps.push(projector);
    await listenOrExplain(
      () => projector.listen(projectorConfig.PROJECTOR_HTTP_PORT, projectorConfig.PROJECTOR_HTTP_HOST),
      {
        port: projectorConfig.PROJECTOR_HTTP_PORT,
        host: projectorConfig.PROJECTOR_HTTP_HOST,
        variable: 'PROJECTOR_HTTP_PORT',
      },
    );
    const decision = await NestFactory.create(
      await kafkaPostgresDecisionModule(decisionConfig, policy, log.child({ app: 'decision' })),
      { logger: false },
    );
    apps.push(decision);
    await listenOrExplain(() => decision.listen(decisionConfig.DECISION_HTTP_PORT, decisionConfig.DECISION_HTTP_HOST), {
      port: decisionConfig.DECISION_HTTP_PORT,
      host: decisionConfig.DECISION_HTTP_HOST,
      variable: 'DECISION_HTTP_PORT',
    });
    if (notifierConfig) {
      const notifier = await NestFactory.create(
        await kafkaPostgresNotifierModule(notifierConfig, log.child({ app: 'notifier' })),
        { logger: false },
      );
      apps.push(notifier);
      await listenOrExplain(
        () => notifier.listen(notifierConfig.NOTIFIER_HTTP_PORT, notifierConfig.NOTIFIER_HTTP_HOST),
        {
          port: notifierConfig.NOTIFIER_HTTP_PORT,
          host: notifierConfig.NOTIFIER_HTTP_HOST,
          variable: 'NOTIFIER_HTTP_PORT',
        },
      );
    }
    const api = await createApiApp({
      config: apiConfig,
      policy,
      log: log.child({ app: 'api' }),
      ...(await kafkaPostgresApiPorts(apiConfig)),
    });
    apps.push(api);
    await listenOrExplain(() => api.listen(apiConfig.API_HTTP_PORT, apiConfig.API_HTTP_HOST), {
      port: apiConfig.API_HTTP_PORT,
      host: apiConfig.API_HTTP_HOST,
      variable: 'API_HTTP_PORT',
    });
  } catch (error) {
    // Closing stops the projector's consumer, which leaves its group now rather than after its session timeout.
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
    throw error;
  }

  const url = `http://${apiConfig.API_HTTP_HOST}:${apiConfig.API_HTTP_PORT}`;
  process.stdout.write(
    [
      '',
      'TokenCircuit Fleet is running against Kafka and Postgres.',
      `  Kafka        ${apiConfig.kafka.brokers.join(',')}`,
      `  Postgres     ${apiConfig.DATABASE_URL.replace(/:[^:@/]+@/, ':***@')}`,
      `  API          ${url}   docs: ${url}/docs`,
      `  CLI          export TOKENCIRCUIT_URL=${url} TOKENCIRCUIT_API_KEY=<a key of TOKENCIRCUIT_API_KEYS>`,
      `  Dashboard    ${url}/dashboard/   (sign in: npx tokencircuit dashboard --open)`,
      `  Projector    http://${projectorConfig.PROJECTOR_HTTP_HOST}:${projectorConfig.PROJECTOR_HTTP_PORT}/health/ready`,
      `  Decision     http://${decisionConfig.DECISION_HTTP_HOST}:${decisionConfig.DECISION_HTTP_PORT}/health/ready`,
      ...(notifierConfig
        ? [
            `  Notifier     http://${notifierConfig.NOTIFIER_HTTP_HOST}:${notifierConfig.NOTIFIER_HTTP_PORT}/health/ready   (sinks: ${[...notifierConfig.notify.sinks.keys()].join(', ')})`,
          ]
        : []),
      '',
    ].join('\n'),
  );
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    for (const app of apps.reverse()) await app.close().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
