import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DEFAULT_CONFIG, loadConfig, TokenCircuitConfigError, type TokenCircuitConfig } from '@tokencircuit/governance';
import { usageError } from '../io/exit-codes.js';

/**
 * The policy named by --policy, else by TOKENCIRCUIT_POLICY_FILE (what `npm start` reads, so the CLI
 * agrees with a server started in the same shell), else the RFC defaults. Any problem is a usage
 * error naming the file and the field.
 */
/** The policy file a command will read (--policy, else TOKENCIRCUIT_POLICY_FILE), or undefined for the RFC defaults. */
export function policyFile(
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
): string | undefined {
  const named = file ?? env.TOKENCIRCUIT_POLICY_FILE;
  return named === undefined || named === '' ? undefined : named;
}

export function policyOption(
  file: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): TokenCircuitConfig {
  const named = policyFile(file, env);
  if (named === undefined) return DEFAULT_CONFIG;
  const path = resolve(cwd, named);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw usageError(`--policy: cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw usageError(`--policy: ${path} is not JSON: ${(error as Error).message}`);
  }
  try {
    return loadConfig(json);
  } catch (error) {
    if (error instanceof TokenCircuitConfigError) throw usageError(`--policy: ${path}: ${error.problems.join('; ')}`);
    throw error;
  }
}
