import type { INestApplicationContext } from '@nestjs/common';
import type { Logger } from 'pino';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import { composeFleet } from './compose-fleet.js';
import type { FleetModuleName } from './fleet-order.js';
import { loadConnectedSettings } from './fleet-settings.js';
import { kafkaPostgresAdapters } from './kafka-postgres-adapters.js';

/**
 * One module composed alone over Kafka + Postgres from `env`, as its standalone process runs it but without the
 * start-up check (specs and benches on topics and a database they made). Closing the returned context stops
 * the module, then its clients.
 */
export async function composeKafkaPostgresModule<T extends INestApplicationContext>(
  name: FleetModuleName,
  env: Record<string, string | undefined>,
  policy: TokenCircuitConfig,
  log: Logger,
): Promise<T> {
  const settings = loadConnectedSettings(env, [name]);
  const adapters = await kafkaPostgresAdapters(settings, log, { clientId: name });
  return (await composeFleet(settings, adapters, [name], policy, log)).module<T>(name);
}
