import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { composeFleet, kafkaPostgresAdapters, loadConnectedSettings, runService } from '@tokencircuit/composition';

// The API process: the fleet's composition root with the API module alone, on Kafka + Postgres.
void runService('api', async () => {
  const settings = loadConnectedSettings(process.env, ['api']);
  const policy = loadPolicy(settings.api!.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: settings.api!.LOG_LEVEL });
  const adapters = await kafkaPostgresAdapters(settings, log, { clientId: 'api', checkWith: process.env });
  return composeFleet(settings, adapters, ['api'], policy, log);
});
