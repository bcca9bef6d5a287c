import pino from 'pino';
import { ConfigError, loadPolicy } from '@tokencircuit/config';
import { createApiApp, kafkaPostgresApiPorts, loadApiConfig } from '@tokencircuit/api-http';

/** Composition root of the API process: Kafka + Postgres adapters. Bad config exits 2, other start failures 1. */
async function main(): Promise<void> {
  const config = loadApiConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'api' } });
  const app = await createApiApp({ config, policy, log, ...(await kafkaPostgresApiPorts(config)) });
  app.enableShutdownHooks();
  await app.listen(config.API_HTTP_PORT, config.API_HTTP_HOST);
  log.info(
    { url: `http://${config.API_HTTP_HOST}:${config.API_HTTP_PORT}`, tenants: config.apiKeys.tenants.length },
    'api listening',
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`api: ${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`api failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
