import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { checkInfrastructure, runApp } from '@tokencircuit/service-kit';
import { startServiceTracing } from '@tokencircuit/tracing';
import { kafkaPostgresProjectorModule, loadProjectorConfig } from '@tokencircuit/projector-service';

// Composition root of the projector process: Kafka + Postgres adapters into the projector module.
void runApp('projector', async () => {
  // Off unless OTEL_TRACES_EXPORTER=otlp (docs/opentelemetry.md, "The services' own traces").
  startServiceTracing('tokencircuit-projector');
  const config = loadProjectorConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'projector' } });
  await checkInfrastructure(process.env, { kafka: config.kafka, databaseUrl: config.DATABASE_URL }, log);
  return {
    module: await kafkaPostgresProjectorModule(config, policy, log),
    log,
    port: config.PROJECTOR_HTTP_PORT,
    host: config.PROJECTOR_HTTP_HOST,
    portVariable: 'PROJECTOR_HTTP_PORT',
  };
});
