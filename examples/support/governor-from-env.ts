import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createGovernor, type Governor, type Transport } from '@tokencircuit/sdk';

/**
 * Where the examples find TokenCircuit, from the environment:
 *   TOKENCIRCUIT_URL      the API (default http://127.0.0.1:8080, what `npm start` serves)
 *   TOKENCIRCUIT_API_KEY  + TOKENCIRCUIT_TENANT; without them, the key `npm start` generated in
 *                         $TOKENCIRCUIT_DATA_DIR/api-keys (default .data/api-keys, "tenant:key")
 *   KAFKA_BROKERS         publish events straight to Kafka (the API still answers preflight)
 */
export function transportFromEnv(env: NodeJS.ProcessEnv = process.env): { tenant: string; transport: Transport } {
  const url = env.TOKENCIRCUIT_URL ?? 'http://127.0.0.1:8080';
  const { tenant, apiKey } = credentials(env);
  const brokers = env.KAFKA_BROKERS?.split(',')
    .map((b) => b.trim())
    .filter(Boolean);
  const api = { url, apiKey };
  return { tenant, transport: brokers && brokers.length > 0 ? { kafka: { brokers }, api } : { http: api } };
}

function credentials(env: NodeJS.ProcessEnv): { tenant: string; apiKey: string } {
  if (env.TOKENCIRCUIT_API_KEY) return { tenant: env.TOKENCIRCUIT_TENANT ?? 'demo', apiKey: env.TOKENCIRCUIT_API_KEY };
  const file = resolve(env.TOKENCIRCUIT_DATA_DIR ?? '.data', 'api-keys');
  if (!existsSync(file)) {
    throw new Error(
      `no API key: set TOKENCIRCUIT_API_KEY (and TOKENCIRCUIT_TENANT), or run \`npm start\` first, which writes ${file}`,
    );
  }
  const line = readFileSync(file, 'utf8').trim().split('\n')[0]!;
  const colon = line.indexOf(':');
  return { tenant: line.slice(0, colon), apiKey: line.slice(colon + 1) };
}

export async function governorFromEnv(agent: string, principal: string): Promise<Governor> {
  const { tenant, transport } = transportFromEnv();
  return createGovernor({ tenant, agent, principal, transport });
}

/** True when this module is the script node/tsx was asked to run. */
export const isMain = (moduleUrl: string): boolean =>
  process.argv[1] !== undefined && moduleUrl === pathToFileURL(resolve(process.argv[1])).href;
