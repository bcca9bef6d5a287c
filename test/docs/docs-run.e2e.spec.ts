import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { parseConsole } from './support/console-block.js';
import { isCommandBlock, modeOf, parseBlocks, type DocBlock } from './support/doc-blocks.js';
import { outputMatches } from './support/output-match.js';
import { runBlock, scratchClone } from './support/run-block.js';

/**
 * Docs that run: every console block of README.md and docs/*.md is executed as printed, against the
 * real CLI (and, for blocks marked `server`, an embedded server this spec starts, found by the CLI
 * through TOKENCIRCUIT_DATA_DIR as `npm start` leaves it), and what it prints is compared with what
 * the docs show. The convention (markers, `…`, `[exit N]`) is in CONTRIBUTING.md; that every command
 * block is run or skipped with a reason is checked in the unit tier (doc-blocks.unit.spec.ts).
 */

const REPO = resolve(import.meta.dirname, '../..');
const DOCS = [
  'README.md',
  ...readdirSync(join(REPO, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];
/** Per block: the demo's five scenarios are the longest (about 30 s on a loaded 2-core machine). */
const BLOCK_TIMEOUT_MS = 240_000;

const blocks: DocBlock[] = DOCS.flatMap((file) => parseBlocks(file, readFileSync(join(REPO, file), 'utf8'))).filter(
  (b) => isCommandBlock(b) && modeOf(b) !== 'skip',
);

/** What a reader's shell has, minus what would point the CLI at other infrastructure than the docs say. */
function readerEnv(dataDir: string, binDir: string): Record<string, string | undefined> {
  const {
    KAFKA_BROKERS: _k,
    DATABASE_URL: _d,
    TOKENCIRCUIT_API_KEY: _key,
    TOKENCIRCUIT_API_KEYS: _keys,
    TOKENCIRCUIT_URL: _url,
    TOKENCIRCUIT_POLICY_FILE: _policy,
    FORCE_COLOR: _colour,
    ...inherited
  } = process.env;
  return { ...inherited, PATH: `${binDir}:${process.env.PATH ?? ''}`, TOKENCIRCUIT_DATA_DIR: dataDir };
}

describe('docs that run: the command blocks of README.md and docs/*.md, as printed', () => {
  const clone = scratchClone(REPO);
  const serverDataDir = mkdtempSync(join(tmpdir(), 'tc-doctest-server-'));
  const offlineDataDir = mkdtempSync(join(tmpdir(), 'tc-doctest-offline-'));
  let server: Promise<EmbeddedRuntime> | null = null;
  /** One embedded server for every `server` block, started by the first: blocks run in document order. */
  const ensureServer = () => {
    server ??= startEmbedded(
      loadEmbeddedConfig({ TOKENCIRCUIT_DATA_DIR: serverDataDir, API_HTTP_PORT: '0', LOG_LEVEL: 'silent' }),
      DEFAULT_CONFIG,
      pino({ level: 'silent' }),
    );
    return server;
  };

  afterAll(async () => {
    if (server) await (await server).stop();
    clone.remove();
    rmSync(serverDataDir, { recursive: true, force: true });
    rmSync(offlineDataDir, { recursive: true, force: true });
  });

  it('finds console blocks to run', () => {
    expect(blocks.length).toBeGreaterThan(5);
  });

  for (const block of blocks) {
    const mode = modeOf(block);
    it(`${block.file}:${block.line} (${mode})`, { timeout: BLOCK_TIMEOUT_MS + 180_000 }, async () => {
      if (mode === 'server') await ensureServer();
      const commands = parseConsole(block.body, block.line);
      const { runs, timedOut } = await runBlock(commands, {
        cwd: clone.dir,
        env: readerEnv(mode === 'server' ? serverDataDir : offlineDataDir, clone.binDir),
        timeoutMs: BLOCK_TIMEOUT_MS,
      });
      const problems = runs.flatMap(({ command, output, exitCode }) => {
        const where = `${block.file}:${command.line} $ ${command.command}`;
        const lines = output.split('\n');
        const wrongExit = exitCode !== command.exitCode ? [`exit ${exitCode}, the docs say ${command.exitCode}`] : [];
        const wrongOutput =
          command.expected.length > 0 && !outputMatches(command.expected, lines)
            ? [`output differs.\n--- the docs show\n${command.expected.join('\n')}\n--- it printed\n${output}`]
            : [];
        return [...wrongExit, ...wrongOutput].map((p) =>
          p.startsWith('exit') ? `${where}\n  ${p}\n--- it printed\n${output}` : `${where}\n  ${p}`,
        );
      });
      if (timedOut)
        problems.push(`${block.file}:${block.line}: the block did not finish within ${BLOCK_TIMEOUT_MS} ms`);
      expect(problems.join('\n\n'), problems.join('\n\n')).toBe('');
    });
  }
});
