import pino from 'pino';
import { loadPolicy } from '@tokencircuit/config';
import { runApp } from '@tokencircuit/service-kit';
import { loadProjectorConfig } from './projector-config.js';
import { ProjectorModule } from './projector.module.js';

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
