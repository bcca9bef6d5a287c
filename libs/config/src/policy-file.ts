import { readFileSync } from 'node:fs';
import { DEFAULT_CONFIG, loadConfig, type TokenCircuitConfig } from '@tokencircuit/governance';
import { ConfigError } from './env.js';

/** The governance policy (TokenCircuitConfig) from a JSON file, or the RFC defaults when no file is named. */
export function loadPolicy(path: string | undefined): TokenCircuitConfig {
  if (!path) return DEFAULT_CONFIG;
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError([`TOKENCIRCUIT_POLICY_FILE: cannot read ${path}: ${(error as Error).message}`]);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    throw new ConfigError([`TOKENCIRCUIT_POLICY_FILE: ${path} is not JSON: ${(error as Error).message}`]);
  }
  try {
    return loadConfig(json);
  } catch (error) {
    throw new ConfigError([`TOKENCIRCUIT_POLICY_FILE: ${path}: ${(error as Error).message}`]);
  }
}
