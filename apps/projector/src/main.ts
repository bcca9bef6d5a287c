import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { runApp } from '@tokencircuit/service-kit';
import { loadProjectorConfig, ProjectorModule } from '@tokencircuit/projector-service';

void runApp('projector', () => {
  const config = loadProjectorConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'projector' } });
  return {
    module: ProjectorModule.forRoot(config, policy, log),
    log,
    port: config.PROJECTOR_HTTP_PORT,
    host: config.PROJECTOR_HTTP_HOST,
  };
});
