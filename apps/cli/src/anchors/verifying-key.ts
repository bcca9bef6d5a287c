import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { AnchorKeyError, parseAnchorVerifyingKey, type AnchorVerifyingKey } from '@tokencircuit/storage';
import type { CliIo } from '../io/cli-io.js';
import { usageError } from '../io/exit-codes.js';

/** PEM text passed through an environment variable often has its newlines written as \n. */
const unescape = (text: string) => text.replace(/\\n/g, '\n');

/**
 * The key anchors are checked with: --public-key (a file, or the key itself), else
 * TOKENCIRCUIT_ANCHOR_PUBLIC_KEY, else the public half of TOKENCIRCUIT_ANCHOR_KEY, else the embedded data
 * folder's generated key (<data-dir>/anchor-key.pem).
 */
export function verifyingKeyOf(option: string | undefined, io: CliIo, dataDir?: string): AnchorVerifyingKey {
  const candidates: Array<[string, () => string | undefined]> = [
    [
      '--public-key',
      () => {
        if (option === undefined) return undefined;
        const file = resolve(io.cwd, option);
        return existsSync(file) ? readFileSync(file, 'utf8') : option;
      },
    ],
    ['TOKENCIRCUIT_ANCHOR_PUBLIC_KEY', () => io.env['TOKENCIRCUIT_ANCHOR_PUBLIC_KEY']],
    ['TOKENCIRCUIT_ANCHOR_KEY', () => io.env['TOKENCIRCUIT_ANCHOR_KEY']],
    [
      'the data folder',
      () => {
        const file = resolve(io.cwd, dataDir ?? io.env['TOKENCIRCUIT_DATA_DIR'] ?? '.data', 'anchor-key.pem');
        return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
      },
    ],
  ];
  for (const [name, read] of candidates) {
    const text = read();
    if (text === undefined || text.trim() === '') continue;
    try {
      return parseAnchorVerifyingKey(unescape(text));
    } catch (error) {
      if (error instanceof AnchorKeyError) throw usageError(`${name}: ${error.message}`);
      throw error;
    }
  }
  throw usageError(
    'no key to check anchors with: pass --public-key <file> or set TOKENCIRCUIT_ANCHOR_PUBLIC_KEY (tokencircuit anchors keygen)',
  );
}
