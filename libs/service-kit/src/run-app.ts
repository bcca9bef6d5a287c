import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule } from '@nestjs/common';
import type { Logger } from 'pino';
import { ConfigError } from '@tokencircuit/config';

/**
 * Boots one Nest app with shutdown hooks and exits with a readable message on bad config (exit 2) or any
 * start-up failure (exit 1).
 */
export async function runApp(
  name: string,
  build: () => Promise<{ module: DynamicModule; log: Logger; port: number; host: string }>,
): Promise<void> {
  try {
    const { module, log, port, host } = await build();
    const app = await NestFactory.create(module, { logger: false });
    app.enableShutdownHooks();
    await app.listen(port, host);
    log.info({ url: `http://${host}:${port}` }, `${name} listening`);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${name}: ${error.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`${name} failed to start: ${(error as Error).stack ?? String(error)}\n`);
    process.exit(1);
  }
}
