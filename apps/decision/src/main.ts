import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { composeFleet, kafkaPostgresAdapters, loadConnectedSettings, runService } from '@tokencircuit/composition';
import { startServiceTracing } from '@tokencircuit/tracing';

// The decision process: the fleet's composition root with the decision module alone, on Kafka + Postgres.
void runService('decision', async () => {
  // Off unless OTEL_TRACES_EXPORTER=otlp (docs/opentelemetry.md, "The services' own traces").
  startServiceTracing('tokencircuit-decision');
  const settings = loadConnectedSettings(process.env, ['decision']);
  const policy = loadPolicy(settings.decision!.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: settings.decision!.LOG_LEVEL });
  const adapters = await kafkaPostgresAdapters(settings, log, { clientId: 'decision', checkWith: process.env });
  return composeFleet(settings, adapters, ['decision'], policy, log);
});
