import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { DynamicModule, INestApplication } from '@nestjs/common';
import type { Logger } from 'pino';
import { listenOrExplain, startFailureOf } from './start-failure.js';

export interface AppPlan {
  readonly module: DynamicModule;
  readonly log: Logger;
  readonly port: number;
  readonly host: string;
  /** The variable that sets `port`, named when the port is taken. */
  readonly portVariable: string;
}

/**
 * Boots one Nest app with shutdown hooks. A failed start prints one line and exits with the code that
 * names what to fix (startFailureOf); an app already created is closed first, so its Kafka consumer
 * leaves the group at once instead of holding partitions until its session times out.
 */
export async function runApp(name: string, build: () => Promise<AppPlan>): Promise<void> {
  let app: INestApplication | undefined;
  try {
    const { module, log, port, host, portVariable } = await build();
    app = await NestFactory.create(module, { logger: false });
    app.enableShutdownHooks();
    const listening = app;
    await listenOrExplain(() => listening.listen(port, host), { port, host, variable: portVariable });
    log.info({ url: `http://${host}:${port}` }, `${name} listening`);
  } catch (error) {
    await app?.close().catch(() => undefined);
    const failure = startFailureOf(name, error);
    process.stderr.write(`${failure.line}\n`);
    process.exit(failure.exitCode);
  }
}
