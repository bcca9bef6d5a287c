import { z } from 'zod';
import { TOPICS } from '@tokencircuit/contracts';
import { AnchorKeyError, parseAnchorSigningKey, type AnchorSigningKey } from '@tokencircuit/storage';
import {
  loadKafkaConnection,
  parseEnv,
  port,
  positiveInt,
  type KafkaConnection,
  databaseUrl,
  logLevel,
  policyFile,
} from '@tokencircuit/config';

/** What the decision module itself needs, whatever its ports are (the embedded mode reads the same). */
const decisionSettingsSchema = z.object({
  /** Outbox rows claimed per round (one transaction). */
  DECISION_BATCH_SIZE: positiveInt.max(10_000).default(1_000),
  /** Safety-net polling; LISTEN/NOTIFY gives the latency. */
  DECISION_POLL_INTERVAL_MS: positiveInt.min(10).default(1_000),
  /** Published outbox rows older than this are deleted (the audit record is `interventions`); 0 keeps them. */
  DECISION_OUTBOX_RETENTION_HOURS: z.coerce.number().int().min(0).max(87_600).default(168),
  /**
   * Ed25519 key that signs the audit anchors (docs/audit.md): PKCS#8 PEM or a 64-hex-digit seed. Without it
   * no anchor is taken (the start-up log says so) and verify can only check the chain, not its tail.
   */
  TOKENCIRCUIT_ANCHOR_KEY: z
    .string()
    .optional()
    .transform((text, ctx): AnchorSigningKey | null => {
      if (text === undefined || text.trim() === '') return null;
      try {
        return parseAnchorSigningKey(text.replace(/\\n/g, '\n'));
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: error instanceof AnchorKeyError ? error.message : String(error) });
        return z.NEVER;
      }
    }),
  /** How often each tenant's chain head and events digest are anchored (when they moved). */
  DECISION_ANCHOR_INTERVAL_MS: positiveInt.min(100).max(86_400_000).default(60_000),
});

const decisionEnvSchema = decisionSettingsSchema.extend({
  DATABASE_URL: databaseUrl,
  INTERVENTIONS_TOPIC: z.string().min(1).default(TOPICS.interventions.name),
  /** Episode lifecycle steps (triggered, escalated, acknowledged, resolved). */
  EPISODES_TOPIC: z.string().min(1).default(TOPICS.episodes.name),
  /** Signed chain heads, keyed by tenant (compacted: the latest anchor of every tenant stays). */
  AUDIT_ANCHORS_TOPIC: z.string().min(1).default(TOPICS.auditAnchors.name),
  DECISION_HTTP_PORT: port.default(9465),
  DECISION_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_POOL_SIZE: positiveInt.max(100).default(4),
  TOKENCIRCUIT_POLICY_FILE: policyFile,
  LOG_LEVEL: logLevel,
});

export type DecisionSettings = z.infer<typeof decisionSettingsSchema>;
export type DecisionConfig = z.infer<typeof decisionEnvSchema> & { readonly kafka: KafkaConnection };

export function loadDecisionConfig(env: Record<string, string | undefined>): DecisionConfig {
  return { ...parseEnv(decisionEnvSchema, env), kafka: loadKafkaConnection(env) };
}

/** The module's settings alone, for hosts that bring their own ports (the embedded mode). */
export function loadDecisionSettings(env: Record<string, string | undefined>): DecisionSettings {
  return parseEnv(decisionSettingsSchema, env);
}
