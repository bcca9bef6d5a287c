import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { runApp } from '@tokencircuit/service-kit';
import { kafkaPostgresProjectorModule, loadProjectorConfig } from '@tokencircuit/projector-service';

// Composition root of the projector process: Kafka + Postgres adapters into the projector module.
void runApp('projector', async () => {
  const config = loadProjectorConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'projector' } });
  return {
    module: await kafkaPostgresProjectorModule(config, policy, log),
    log,
    port: config.PROJECTOR_HTTP_PORT,
    host: config.PROJECTOR_HTTP_HOST,
  };
});
