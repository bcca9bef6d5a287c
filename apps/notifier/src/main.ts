import pino from 'pino';
import { checkInfrastructure, runApp } from '@tokencircuit/service-kit';
import { startServiceTracing } from '@tokencircuit/tracing';
import { kafkaPostgresNotifierModule, loadNotifierConfig } from '@tokencircuit/notifier-service';

// Composition root of the notifier process: Kafka + Postgres adapters into the notifier module.
void runApp('notifier', async () => {
  // Off unless OTEL_TRACES_EXPORTER=otlp (docs/opentelemetry.md, "The services' own traces").
  startServiceTracing('tokencircuit-notifier');
  const config = loadNotifierConfig(process.env);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'notifier' } });
  await checkInfrastructure(process.env, { kafka: config.kafka, databaseUrl: config.DATABASE_URL }, log);
  return {
    module: await kafkaPostgresNotifierModule(config, log),
    log,
    port: config.NOTIFIER_HTTP_PORT,
    host: config.NOTIFIER_HTTP_HOST,
    portVariable: 'NOTIFIER_HTTP_PORT',
  };
});
