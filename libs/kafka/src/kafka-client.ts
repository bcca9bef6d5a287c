import { Kafka, logLevel, type KafkaConfig, type SASLOptions } from 'kafkajs';
import type { KafkaConnection } from '@tokencircuit/config';
import { registerCodecs } from './codecs.js';

/**
 * A kafkajs client for a validated connection; kafkajs' own logger is silenced in favour of ours. Every
 * compression codec Kafka defines is registered first (codecs.ts), so no client of this project fails on a
 * batch another producer compressed.
 */
export function createKafka(
  connection: KafkaConnection,
  clientIdSuffix?: string,
  overrides: Pick<KafkaConfig, 'retry'> = {},
): Kafka {
  registerCodecs();
  const config: KafkaConfig = {
    brokers: connection.brokers,
    clientId: clientIdSuffix ? `${connection.clientId}-${clientIdSuffix}` : connection.clientId,
    ssl: connection.ssl,
    logLevel: logLevel.NOTHING,
    retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 5_000 },
    ...overrides,
  };
  if (connection.sasl) config.sasl = connection.sasl as SASLOptions;
  return new Kafka(config);
}
