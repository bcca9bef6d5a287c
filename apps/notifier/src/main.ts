import pino from 'pino';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { composeFleet, kafkaPostgresAdapters, loadConnectedSettings, runService } from '@tokencircuit/composition';
import { startServiceTracing } from '@tokencircuit/tracing';

// The notifier process: the fleet's composition root with the notifier module alone, on Kafka + Postgres.
void runService('notifier', async () => {
  // Off unless OTEL_TRACES_EXPORTER=otlp (docs/opentelemetry.md, "The services' own traces").
  startServiceTracing('tokencircuit-notifier');
  const settings = loadConnectedSettings(process.env, ['notifier']);
  // The notifier applies no policy: it sends what the decision service decided.
  const policy = DEFAULT_CONFIG;
  const log = pino({ level: settings.notifier!.settings.LOG_LEVEL });
  const adapters = await kafkaPostgresAdapters(settings, log, { clientId: 'notifier', checkWith: process.env });
  return composeFleet(settings, adapters, ['notifier'], policy, log);
});
