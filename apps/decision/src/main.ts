import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { checkInfrastructure, runApp } from '@tokencircuit/service-kit';
import { startServiceTracing } from '@tokencircuit/tracing';
import { kafkaPostgresDecisionModule, loadDecisionConfig } from '@tokencircuit/decision-service';

// Composition root of the decision process: Kafka + Postgres adapters into the decision module.
void runApp('decision', async () => {
  // Off unless OTEL_TRACES_EXPORTER=otlp (docs/opentelemetry.md, "The services' own traces").
  startServiceTracing('tokencircuit-decision');
  const config = loadDecisionConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'decision' } });
  await checkInfrastructure(process.env, { kafka: config.kafka, databaseUrl: config.DATABASE_URL }, log);
  return {
    module: await kafkaPostgresDecisionModule(config, policy, log),
    log,
    port: config.DECISION_HTTP_PORT,
    host: config.DECISION_HTTP_HOST,
    portVariable: 'DECISION_HTTP_PORT',
  };
});
