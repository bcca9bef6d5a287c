import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EmbeddedConfig } from './embedded-config.js';

/** Where the embedded server records its URL, beside api-keys, for `npx tokencircuit` to find it. */
export const apiUrlFile = (config: Pick<EmbeddedConfig, 'dataDir'>): string => resolve(config.dataDir, 'api-url');

/** Written once listening, so a CLI started in the same folder talks to this server whatever its port. */
export function recordApiUrl(config: Pick<EmbeddedConfig, 'dataDir'>, url: string): void {
  writeFileSync(apiUrlFile(config), `${url}\n`, { mode: 0o644 });
}

/** Removed on a clean stop, unless another server has recorded its own URL since. */
export function forgetApiUrl(config: Pick<EmbeddedConfig, 'dataDir'>, url: string): void {
  try {
    if (readFileSync(apiUrlFile(config), 'utf8').trim() === url) rmSync(apiUrlFile(config));
  } catch {
    // Already gone: nothing to forget.
  }
}
