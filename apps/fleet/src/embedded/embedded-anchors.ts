import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { AnchorSink } from '@tokencircuit/decision-relay';
import {
  generateAnchorKeyPair,
  parseAnchorSigningKey,
  type AnchorSigningKey,
  type SignedAnchor,
} from '@tokencircuit/storage';
import type { EmbeddedConfig } from './embedded-config.js';

/** Where the embedded mode keeps its anchors: one signed anchor per line, appended (`verify --anchor` reads it). */
export const anchorsFile = (config: Pick<EmbeddedConfig, 'dataDir'>): string =>
  resolve(config.dataDir, 'audit-anchors.jsonl');

/**
 * The embedded mode's anchor key: TOKENCIRCUIT_ANCHOR_KEY when given (then the key is not in the data
 * folder), else one made once and kept (mode 0600) as <data-dir>/anchor-key.pem, where the CLI finds it.
 */
export function embeddedAnchorKey(config: EmbeddedConfig): AnchorSigningKey {
  if (config.decision.TOKENCIRCUIT_ANCHOR_KEY) return config.decision.TOKENCIRCUIT_ANCHOR_KEY;
  mkdirSync(config.dataDir, { recursive: true });
  const file = resolve(config.dataDir, 'anchor-key.pem');
  if (!existsSync(file)) writeFileSync(file, generateAnchorKeyPair().privateKeyPem, { mode: 0o600 });
  return parseAnchorSigningKey(readFileSync(file, 'utf8'));
}

/**
 * Anchors of the embedded mode (no Kafka there) go to a file in the data folder, outside the PGlite
 * database: an edit made through SQL cannot reach them. Copy the file (or `anchors export --data-dir`)
 * off the machine to keep a head nobody with access to the folder can rewrite (docs/audit.md).
 */
export class FileAnchorSink implements AnchorSink {
  constructor(private readonly file: string) {}

  async publish(anchors: readonly SignedAnchor[]): Promise<void> {
    // appendFileSync: one write per round, whole lines, in order; the round is retried if it throws.
    appendFileSync(this.file, anchors.map((a) => `${JSON.stringify(a)}\n`).join(''), { mode: 0o600 });
  }
}
