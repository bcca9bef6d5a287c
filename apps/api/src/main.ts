import type { INestApplication } from '@nestjs/common';
import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { createApiApp, kafkaPostgresApiPorts, loadApiConfig } from '@tokencircuit/api-http';
import { checkInfrastructure, listenOrExplain, startFailureOf } from '@tokencircuit/service-kit';

let app: INestApplication | undefined;

/** Composition root of the API process: Kafka + Postgres adapters. A failed start is one line and an exit code. */
async function main(): Promise<void> {
  const config = loadApiConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'api' } });
  await checkInfrastructure(process.env, { kafka: config.kafka, databaseUrl: config.DATABASE_URL }, log);
  const started = await createApiApp({ config, policy, log, ...(await kafkaPostgresApiPorts(config)) });
  app = started;
  started.enableShutdownHooks();
  const { API_HTTP_PORT: port, API_HTTP_HOST: host } = config;
  await listenOrExplain(() => started.listen(port, host), { port, host, variable: 'API_HTTP_PORT' });
  log.info({ url: `http://${host}:${port}`, tenants: config.apiKeys.tenants.length }, 'api listening');
}

main().catch(async (error: unknown) => {
  await app?.close().catch(() => undefined);
  const failure = startFailureOf('api', error);
  process.stderr.write(`${failure.line}\n`);
  process.exit(failure.exitCode);
});
