import { resolve } from 'node:path';
import type { Command } from 'commander';
import { generateAnchorKeyPair, verifyAnchor, AnchorError } from '@tokencircuit/storage';
import type { CliIo } from '../io/cli-io.js';
import { EXIT, usageError, type ExitCode } from '../io/exit-codes.js';
import { anchorsFromFile, anchorsFromKafka, EMBEDDED_ANCHORS_FILE } from './anchor-sources.js';
import { verifyingKeyOf } from './verifying-key.js';

interface ExportOptions {
  readonly tenant?: string;
  readonly file?: string;
  readonly dataDir?: string;
  readonly publicKey?: string;
  readonly unchecked?: boolean;
}

/**
 * `tokencircuit anchors keygen | export`: make the Ed25519 key pair the decision service signs anchors with,
 * and copy the latest signed anchors out (from the audit-anchors topic, or the embedded data folder) into a
 * file the operator keeps: `npx tokencircuit anchors export > head.json`, later `verify --anchor head.json`.
 */
export function anchorsCommand(program: Command, io: CliIo, done: (code: ExitCode) => void): void {
  const anchors = program.command('anchors').description('audit anchors: signing keys and signed chain heads');
  anchors
    .command('keygen')
    .description('print a new Ed25519 key pair: TOKENCIRCUIT_ANCHOR_KEY (secret) and its public key')
    .action(() => {
      const pair = generateAnchorKeyPair();
      io.stdout.write(
        `# anchor key id ${pair.keyId}\n` +
          `# TOKENCIRCUIT_ANCHOR_KEY (secret: the decision service signs with it)\n${pair.privateKeyPem}` +
          `# TOKENCIRCUIT_ANCHOR_PUBLIC_KEY (verify --public-key; safe to share)\n${pair.publicKeyPem}`,
      );
      done(EXIT.ok);
    });
  anchors
    .command('export')
    .description('print the latest signed anchor of each tenant (JSON lines; one object with --tenant)')
    .option('--tenant <tenant>', 'only this tenant (prints one JSON object)')
    .option(
      '--file <path>',
      `read anchors from this file instead of the topic (embedded mode: <data-dir>/${EMBEDDED_ANCHORS_FILE})`,
    )
    .option('--data-dir <dir>', `embedded data folder: read its ${EMBEDDED_ANCHORS_FILE}`)
    .option('--public-key <file>', 'check each signature with this key (default: as verify finds one)')
    .option('--unchecked', 'copy anchors without checking their signatures')
    .action(async (options: ExportOptions) => {
      if (options.file && options.dataDir) throw usageError('--file and --data-dir: choose one');
      const latest = options.file
        ? anchorsFromFile(options.file, io)
        : options.dataDir
          ? anchorsFromFile(resolve(io.cwd, options.dataDir, EMBEDDED_ANCHORS_FILE), io)
          : await anchorsFromKafka(io);
      const key = options.unchecked ? null : verifyingKeyOf(options.publicKey, io, options.dataDir);
      const chosen = options.tenant === undefined ? [...latest.values()] : [latest.get(options.tenant)];
      if (chosen[0] === undefined && options.tenant !== undefined) {
        throw usageError(`no anchor of tenant ${options.tenant} yet`);
      }
      for (const value of chosen) {
        if (key) {
          try {
            verifyAnchor(value, key);
          } catch (error) {
            if (error instanceof AnchorError) throw usageError(error.message);
            throw error;
          }
        }
        io.stdout.write(`${JSON.stringify(value)}\n`);
      }
      if (chosen.length === 0) io.stderr.write('tokencircuit: no anchor yet\n');
      done(EXIT.ok);
    });
}
