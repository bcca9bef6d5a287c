import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { composeFleet, kafkaPostgresAdapters, loadConnectedSettings, runService } from '@tokencircuit/composition';
import { startServiceTracing } from '@tokencircuit/tracing';

// The projector process: the fleet's composition root with the projector module alone, on Kafka + Postgres.
void runService('projector', async () => {
  // Off unless OTEL_TRACES_EXPORTER=otlp (docs/opentelemetry.md, "The services' own traces").
  startServiceTracing('tokencircuit-projector');
  const settings = loadConnectedSettings(process.env, ['projector']);
  const policy = loadPolicy(settings.projector!.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: settings.projector!.LOG_LEVEL });
  const adapters = await kafkaPostgresAdapters(settings, log, { clientId: 'projector', checkWith: process.env });
  return composeFleet(settings, adapters, ['projector'], policy, log);
});
