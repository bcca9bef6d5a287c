import { z } from 'zod';
import { booleanFlag, commaList, ConfigError, parseEnv } from './env.js';

/** Connection settings for a real cluster: brokers, client id, TLS and SASL (plain / scram). */
export const kafkaEnvSchema = z.object({
  KAFKA_BROKERS: commaList.refine((brokers) => brokers.every((b) => /^[^\s:]+:\d+$/.test(b)), {
    message: 'each broker must be host:port, e.g. 127.0.0.1:19092',
  }),
  KAFKA_CLIENT_ID: z.string().min(1).default('tokencircuit'),
  KAFKA_SSL: booleanFlag.default(false),
  KAFKA_SASL_MECHANISM: z.enum(['plain', 'scram-sha-256', 'scram-sha-512']).optional(),
  KAFKA_SASL_USERNAME: z.string().optional(),
  KAFKA_SASL_PASSWORD: z.string().optional(),
});

export type KafkaEnv = z.infer<typeof kafkaEnvSchema>;

export interface KafkaConnection {
  readonly brokers: string[];
  readonly clientId: string;
  readonly ssl: boolean;
  readonly sasl: { mechanism: 'plain' | 'scram-sha-256' | 'scram-sha-512'; username: string; password: string } | null;
}

/** Reads the Kafka connection from the environment; a ConfigError names every wrong variable. */
export function loadKafkaConnection(env: Record<string, string | undefined>): KafkaConnection {
  const parsed = parseEnv(kafkaEnvSchema, env);
  if (parsed.KAFKA_SASL_MECHANISM && (!parsed.KAFKA_SASL_USERNAME || !parsed.KAFKA_SASL_PASSWORD)) {
    throw new ConfigError([
      'KAFKA_SASL_USERNAME and KAFKA_SASL_PASSWORD: both are required when KAFKA_SASL_MECHANISM is set',
    ]);
  }
  return {
    brokers: parsed.KAFKA_BROKERS,
    clientId: parsed.KAFKA_CLIENT_ID,
    ssl: parsed.KAFKA_SSL,
    sasl: parsed.KAFKA_SASL_MECHANISM
      ? {
          mechanism: parsed.KAFKA_SASL_MECHANISM,
          username: parsed.KAFKA_SASL_USERNAME!,
          password: parsed.KAFKA_SASL_PASSWORD!,
        }
      : null,
  };
}
