import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { loadAll, parseEnv, port, logLevel, policyFile } from '@tokencircuit/config';
import { loadApiSettings, type ApiSettings } from '@tokencircuit/api-http';
import { loadDecisionSettings, type DecisionSettings } from '@tokencircuit/decision-service';
import type { NotifyConfig } from '@tokencircuit/notifier';
import { loadNotifierSettings, readNotifyFile, type NotifierSettings } from '@tokencircuit/notifier-service';
import { loadProjectorSettings, type ProjectorSettings } from '@tokencircuit/projector-service';
import { TOPICS } from '@tokencircuit/contracts';

const embeddedEnvSchema = z.object({
  /** Where PGlite keeps its data and the generated API key lives. */
  TOKENCIRCUIT_DATA_DIR: z.string().min(1).default('.data'),
  API_HTTP_PORT: port.default(8080),
  API_HTTP_HOST: z.string().min(1).default('127.0.0.1'),
  TOKENCIRCUIT_POLICY_FILE: policyFile,
  TOKENCIRCUIT_API_KEYS: z.string().min(1).optional(),
  /** The notifier's routing file: set, the notifier runs in the process too. */
  TOKENCIRCUIT_NOTIFY_FILE: z.string().min(1).optional(),
  LOG_LEVEL: logLevel,
});

export type EmbeddedConfig = z.infer<typeof embeddedEnvSchema> & {
  /**
   * The same settings, read from the same variables, as every module runs with when connected — the projector's
   * group and topic aside, which are the in-process bus's own.
   */
  readonly projector: ProjectorSettings;
  readonly decision: DecisionSettings;
  readonly api: ApiSettings;
  /** Null unless TOKENCIRCUIT_NOTIFY_FILE names a routing file. */
  readonly notifier: { readonly settings: NotifierSettings; readonly notify: NotifyConfig } | null;
  readonly dataDir: string;
  readonly pgliteDir: string;
  readonly apiKeysFile: string;
};

export const DEMO_TENANT = 'demo';
export const EMBEDDED_GROUP = 'tokencircuit-embedded';

export function loadEmbeddedConfig(env: Record<string, string | undefined>): EmbeddedConfig {
  const [parsed, projector, decision, api, notifier] = loadAll(
    () => parseEnv(embeddedEnvSchema, env),
    () =>
      loadProjectorSettings({
        ...env,
        PROJECTOR_GROUP_ID: EMBEDDED_GROUP,
        AGENT_EVENTS_TOPIC: TOPICS.agentEvents.name,
      }),
    () => loadDecisionSettings(env),
    () => loadApiSettings(env),
    () =>
      env.TOKENCIRCUIT_NOTIFY_FILE
        ? { settings: loadNotifierSettings(env), notify: readNotifyFile(env.TOKENCIRCUIT_NOTIFY_FILE, env) }
        : null,
  );
  const dataDir = resolve(parsed.TOKENCIRCUIT_DATA_DIR);
  return {
    ...parsed,
    projector,
    decision,
    api,
    notifier,
    dataDir,
    pgliteDir: resolve(dataDir, 'pglite'),
    apiKeysFile: resolve(dataDir, 'api-keys'),
  };
}

/**
 * The embedded mode's API keys: TOKENCIRCUIT_API_KEYS when given, else a key for the "demo" tenant made
 * once and kept (mode 0600) in the data folder, where the CLI finds it.
 */
export function embeddedApiKeys(config: EmbeddedConfig): string {
  if (config.TOKENCIRCUIT_API_KEYS) return config.TOKENCIRCUIT_API_KEYS;
  mkdirSync(config.dataDir, { recursive: true });
  if (!existsSync(config.apiKeysFile)) {
    writeFileSync(config.apiKeysFile, `${DEMO_TENANT}:tc_${randomBytes(24).toString('hex')}\n`, { mode: 0o600 });
  }
  return readFileSync(config.apiKeysFile, 'utf8').trim();
}
