import { createHash } from 'node:crypto';
import { canonicalJson } from '../support/canonical-json.js';
import type { TokenCircuitConfig } from './config.js';

const versions = new WeakMap<TokenCircuitConfig, string>();

/**
 * "sha256:<hex>" of the normalised policy's canonical JSON: stable under key order, different for
 * any change of content. Every artifact records it, so an auditor knows which policy decided.
 */
export function policyVersion(config: TokenCircuitConfig): string {
  let version = versions.get(config);
  if (version === undefined) {
    version = `sha256:${createHash('sha256').update(canonicalJson(config), 'utf8').digest('hex')}`;
    versions.set(config, version);
  }
  return version;
}
