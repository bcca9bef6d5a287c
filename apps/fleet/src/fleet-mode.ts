import { ConfigError } from '@tokencircuit/config';

export type FleetMode = 'embedded' | 'connected';

/**
 * With neither KAFKA_BROKERS nor DATABASE_URL the fleet runs embedded (PGlite + in-process bus); with
 * both it runs against them. One without the other is a mistake worth stopping for, not guessing at.
 */
export function fleetModeOf(env: Record<string, string | undefined>): FleetMode {
  const kafka = Boolean(env.KAFKA_BROKERS?.trim());
  const database = Boolean(env.DATABASE_URL?.trim());
  if (kafka && database) return 'connected';
  if (!kafka && !database) return 'embedded';
  throw new ConfigError([
    kafka
      ? 'DATABASE_URL: not set, but KAFKA_BROKERS is; set both to run against real infrastructure, or neither for the embedded mode'
      : 'KAFKA_BROKERS: not set, but DATABASE_URL is; set both to run against real infrastructure, or neither for the embedded mode',
  ]);
}
