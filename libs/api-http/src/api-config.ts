import { z } from 'zod';
import { TOPICS } from '@tokencircuit/contracts';
import {
  ConfigError,
  loadKafkaConnection,
  parseEnv,
  port,
  positiveInt,
  type KafkaConnection,
  databaseUrl,
  logLevel,
  policyFile,
} from '@tokencircuit/config';
import { parseApiKeys, type ApiKeyRing } from './auth/api-keys.js';

const apiEnvSchema = z.object({
  DATABASE_URL: databaseUrl,
  DATABASE_POOL_SIZE: positiveInt.max(100).default(8),
  AGENT_EVENTS_TOPIC: z.string().min(1).default(TOPICS.agentEvents.name),
  /** The dashboard's live view follows this topic (the decision service's INTERVENTIONS_TOPIC). */
  INTERVENTIONS_TOPIC: z.string().min(1).default(TOPICS.interventions.name),
  API_HTTP_PORT: port.default(8080),
  API_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Largest request body accepted, in bytes. A batch holds at most 500 events of at most 64 KiB each;
   * the default admits realistic batches while bounding what one request can make us buffer.
   */
  API_MAX_BODY_BYTES: positiveInt
    .min(64 * 1024)
    .max(64 * 1024 * 1024)
    .default(4 * 1024 * 1024),
  TOKENCIRCUIT_POLICY_FILE: policyFile,
  LOG_LEVEL: logLevel,
});

/** The API's validated configuration; TOKENCIRCUIT_API_KEYS arrives as a key ring of digests, never as text. */
export type ApiConfig = z.infer<typeof apiEnvSchema> & {
  readonly apiKeys: ApiKeyRing;
  readonly kafka: KafkaConnection;
};

/** Validated once at start; a ConfigError lists every variable to fix (API keys are never echoed back). */
export function loadApiConfig(env: Record<string, string | undefined>): ApiConfig {
  const problems: string[] = [];
  const attempt = <T>(load: () => T): T | undefined => {
    try {
      return load();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
      return undefined;
    }
  };
  // parseEnv quotes bad values in its messages, so the secret variable is parsed on its own.
  const { TOKENCIRCUIT_API_KEYS: keys, ...rest } = env;
  const parsed = attempt(() => parseEnv(apiEnvSchema, rest));
  const apiKeys = attempt(() => parseApiKeys(keys));
  const kafka = attempt(() => loadKafkaConnection(env));
  if (!parsed || !apiKeys || !kafka) throw new ConfigError(problems);
  return { ...parsed, apiKeys, kafka };
}
