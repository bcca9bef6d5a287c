import { readFileSync } from 'node:fs';
import { GatewayConfigError, loadGatewayConfig, type ResolvedGatewayConfig } from '@tokencircuit/mcp-gateway';

/** Reads and validates a gateway config file; GatewayConfigError names the file's every problem. */
export function loadGatewayConfigFile(
  path: string,
  env: Readonly<Record<string, string | undefined>>,
): ResolvedGatewayConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new GatewayConfigError([
      `${path}: cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    ]);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new GatewayConfigError([`${path}: not JSON (${(error as Error).message})`]);
  }
  return loadGatewayConfig(json, env);
}
