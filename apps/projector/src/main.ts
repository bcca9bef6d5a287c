import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import pino from 'pino';
import { ConfigError, loadPolicy } from '@tokencircuit/config';
import { loadProjectorConfig } from './projector-config.js';
import { ProjectorModule } from './projector.module.js';

async function main(): Promise<void> {
  const config = loadProjectorConfig(process.env);
  const policy = loadPolicy(config.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.LOG_LEVEL, base: { app: 'projector' } });
  const app = await NestFactory.create(ProjectorModule.forRoot(config, policy, log), { logger: false });
  app.enableShutdownHooks();
  await app.listen(config.PROJECTOR_HTTP_PORT, config.PROJECTOR_HTTP_HOST);
  log.info({ port: config.PROJECTOR_HTTP_PORT }, 'projector http (health, metrics) listening');
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  process.stderr.write(`projector failed to start: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
