import pino from 'pino';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule, INestApplicationContext } from '@nestjs/common';
import { loadAll, loadPolicy } from '@tokencircuit/config';
import { checkInfrastructure, composeModules } from '@tokencircuit/service-kit';
import { createApiApp, kafkaPostgresApiPorts, loadApiConfig } from '@tokencircuit/api-http';
import { kafkaPostgresDecisionModule, loadDecisionConfig } from '@tokencircuit/decision-service';
import { kafkaPostgresNotifierModule, loadNotifierConfig } from '@tokencircuit/notifier-service';
import { kafkaPostgresProjectorModule, loadProjectorConfig } from '@tokencircuit/projector-service';
import { FLEET_STOP_ORDER, fleetModules } from './fleet-order.js';
import { listening } from './listening.js';

export interface ConnectedRuntime {
  readonly url: string;
  readonly config: ConnectedConfig;
  /** Every module's Nest context by name (projector, decision, notifier when configured, api). */
  readonly contexts: ReadonlyMap<string, INestApplicationContext>;
  stop(): Promise<void>;
}

export type ConnectedConfig = ReturnType<typeof loadConnectedConfig>;

/** Every module's configuration, read from the environment once; all problems reported together (exit 2). */
export function loadConnectedConfig(env: Record<string, string | undefined>) {
  const [projector, decision, api, notifier] = loadAll(
    () => loadProjectorConfig(env),
    () => loadDecisionConfig(env),
    () => loadApiConfig(env),
    // Validated before anything starts: a bad routing file stops the start with exit 2, like any config.
    () => (env.TOKENCIRCUIT_NOTIFY_FILE ? loadNotifierConfig(env) : null),
  );
  return { projector, decision, api, notifier };
}

/** A service module as a Nest app on its own health and metrics port, named by the variable that moves it. */
async function onOwnPort(module: DynamicModule, port: number, host: string, variable: string) {
  return listening(await NestFactory.create(module, { logger: false }), { port, host, variable });
}

/**
 * Projector, decision service, notifier (with a routing file) and API in one process against real Kafka and
 * Postgres — each the production Nest app with its own config and health port, started and stopped in the
 * fleet's order (fleet-order.ts), as the embedded mode does. For scale, run them as separate processes.
 */
export async function composeConnected(env: Record<string, string | undefined>): Promise<ConnectedRuntime> {
  const config = loadConnectedConfig(env);
  const { projector, decision, api, notifier } = config;
  const policy = loadPolicy(api.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: api.LOG_LEVEL, base: { app: 'fleet' } });

  // Never creates nor migrates (issue 27): a mistyped DATABASE_URL once became a second, empty fleet in the
  // same projector group. `npm run migrate` creates and migrates; here a missing or unmigrated database is exit 4.
  await checkInfrastructure(env, { kafka: api.kafka, databaseUrl: api.DATABASE_URL }, log.child({ app: 'topics' }));

  const fleet = await composeModules(
    fleetModules({
      projector: {
        start: async () =>
          onOwnPort(
            await kafkaPostgresProjectorModule(projector, policy, log.child({ app: 'projector' })),
            projector.PROJECTOR_HTTP_PORT,
            projector.PROJECTOR_HTTP_HOST,
            'PROJECTOR_HTTP_PORT',
          ),
      },
      decision: {
        start: async () =>
          onOwnPort(
            await kafkaPostgresDecisionModule(decision, policy, log.child({ app: 'decision' })),
            decision.DECISION_HTTP_PORT,
            decision.DECISION_HTTP_HOST,
            'DECISION_HTTP_PORT',
          ),
      },
      ...(notifier && {
        notifier: {
          start: async () =>
            onOwnPort(
              await kafkaPostgresNotifierModule(notifier, log.child({ app: 'notifier' })),
              notifier.NOTIFIER_HTTP_PORT,
              notifier.NOTIFIER_HTTP_HOST,
              'NOTIFIER_HTTP_PORT',
            ),
        },
      }),
      api: {
        start: async () =>
          listening(
            await createApiApp({
              config: api,
              policy,
              log: log.child({ app: 'api' }),
              ...(await kafkaPostgresApiPorts(api)),
            }),
            { port: api.API_HTTP_PORT, host: api.API_HTTP_HOST, variable: 'API_HTTP_PORT' },
          ),
      },
    }),
    FLEET_STOP_ORDER,
  );
  const url = `http://${api.API_HTTP_HOST}:${api.API_HTTP_PORT}`;
  return { url, config, contexts: fleet.contexts, stop: fleet.stop };
}

/** `npm start` connected: composes the fleet, says where everything is, and stops it on Ctrl+C or SIGTERM. */
export async function startConnected(env: Record<string, string | undefined>): Promise<void> {
  const runtime = await composeConnected(env);
  const { projector, decision, api, notifier } = runtime.config;
  const url = runtime.url;
  process.stdout.write(
    [
      '',
      'TokenCircuit Fleet is running against Kafka and Postgres.',
      `  Kafka        ${api.kafka.brokers.join(',')}`,
      `  Postgres     ${api.DATABASE_URL.replace(/:[^:@/]+@/, ':***@')}`,
      `  API          ${url}   docs: ${url}/docs`,
      `  CLI          export TOKENCIRCUIT_URL=${url} TOKENCIRCUIT_API_KEY=<a key of TOKENCIRCUIT_API_KEYS>`,
      `  Dashboard    ${url}/dashboard/   (sign in: npx tokencircuit dashboard --open)`,
      `  Projector    http://${projector.PROJECTOR_HTTP_HOST}:${projector.PROJECTOR_HTTP_PORT}/health/ready`,
      `  Decision     http://${decision.DECISION_HTTP_HOST}:${decision.DECISION_HTTP_PORT}/health/ready`,
      ...(notifier
        ? [
            `  Notifier     http://${notifier.NOTIFIER_HTTP_HOST}:${notifier.NOTIFIER_HTTP_PORT}/health/ready   (sinks: ${[...notifier.notify.sinks.keys()].join(', ')})`,
          ]
        : []),
      '',
    ].join('\n'),
  );
  const stop = async () => {
    await runtime.stop().catch(() => undefined);
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}
