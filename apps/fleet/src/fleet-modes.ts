import pino from 'pino';
import type { Logger } from 'pino';
import type { INestApplicationContext } from '@nestjs/common';
import type { InProcessBus } from '@tokencircuit/bus';
import { loadPolicy } from '@tokencircuit/config';
import type { TokenCircuitConfig } from '@tokencircuit/governance';
import type { SqlDatabase } from '@tokencircuit/storage';
import { parseApiKeys } from '@tokencircuit/api-http';
import {
  composeFleet,
  FLEET_MODULES,
  kafkaPostgresAdapters,
  loadConnectedSettings,
  type ConnectedSettings,
} from '@tokencircuit/composition';
import { forgetApiUrl, recordApiUrl } from './embedded/api-url-file.js';
import { embeddedAdapters } from './embedded/embedded-adapters.js';
import { embeddedAnchorKey } from './embedded/embedded-anchors.js';
import { embeddedApiKeys, type EmbeddedConfig } from './embedded/embedded-config.js';

interface Runtime {
  readonly url: string;
  /** Every module's Nest context by name (projector, decision, notifier when configured, api). */
  readonly contexts: ReadonlyMap<string, INestApplicationContext>;
  stop(): Promise<void>;
}

export interface EmbeddedRuntime extends Runtime {
  readonly bus: InProcessBus;
  readonly db: SqlDatabase;
}

/** Every module's settings and connection, loaded once (the notifier only with a routing file). */
export type ConnectedConfig = Required<Omit<ConnectedSettings, 'notifier'>> & Pick<ConnectedSettings, 'notifier'>;

export interface ConnectedRuntime extends Runtime {
  readonly config: ConnectedConfig;
}

/** The connected mode's settings: every module's, from the environment, every problem reported together (exit 2). */
export function loadConnectedConfig(env: Record<string, string | undefined>): ConnectedConfig {
  return loadConnectedSettings(env, FLEET_MODULES, { notifierOptional: true }) as ConnectedConfig;
}

/**
 * The embedded mode: the fleet's modules with the settings read from the environment (embedded-config.ts), over
 * PGlite and the in-process bus (embedded-adapters.ts). The API's URL is recorded where the CLI finds it.
 */
export async function startEmbedded(
  config: EmbeddedConfig,
  policy: TokenCircuitConfig,
  log: Logger,
): Promise<EmbeddedRuntime> {
  const settings = {
    projector: config.projector,
    decision: { ...config.decision, TOKENCIRCUIT_ANCHOR_KEY: embeddedAnchorKey(config) },
    notifier: config.notifier,
    api: {
      ...config.api,
      apiKeys: parseApiKeys(embeddedApiKeys(config)),
      API_HTTP_PORT: config.API_HTTP_PORT,
      API_HTTP_HOST: config.API_HTTP_HOST,
    },
  };
  const adapters = await embeddedAdapters(config, log);
  const fleet = await composeFleet(settings, adapters, FLEET_MODULES, policy, log);
  const url = (await fleet.api!.getUrl()).replace('[::1]', '127.0.0.1');
  recordApiUrl(config, url);
  return {
    url,
    bus: adapters.bus,
    db: adapters.db,
    contexts: fleet.contexts,
    async stop() {
      await fleet.stop();
      forgetApiUrl(config, url);
    },
  };
}

/**
 * The connected mode: the same modules, each with its own health and metrics port, over Kafka and Postgres
 * (kafkaPostgresAdapters). For scale, run them as separate processes (apps/projector, decision, notifier, api).
 */
export async function composeConnected(env: Record<string, string | undefined>): Promise<ConnectedRuntime> {
  const config = loadConnectedConfig(env);
  const policy = loadPolicy(config.api.TOKENCIRCUIT_POLICY_FILE);
  const log = pino({ level: config.api.LOG_LEVEL, base: { app: 'fleet' } });
  const adapters = await kafkaPostgresAdapters(config, log, { clientId: 'fleet', checkWith: env });
  const fleet = await composeFleet(config, adapters, FLEET_MODULES, policy, log);
  const url = `http://${config.api.API_HTTP_HOST}:${config.api.API_HTTP_PORT}`;
  return { url, config, contexts: fleet.contexts, stop: fleet.stop };
}
