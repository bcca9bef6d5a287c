import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { waitFor } from '@tokencircuit/testing';
import { loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { jsonLines, runCli } from '../cli/support/run-cli.js';

interface Anchor {
  tenant: string;
  chain: { seq: number; hash: string } | null;
  events: { count: number };
}

/**
 * Embedded mode has no Kafka: the decision module anchors to <data-dir>/audit-anchors.jsonl with a key it
 * made once in the data folder, and `verify --anchor` checks the PGlite trail against that file.
 */
describe('embedded mode: audit anchors in the data folder', () => {
  let dataDir: string;
  let runtime: EmbeddedRuntime | null = null;
  const api = () => ['--url', runtime!.url, '--data-dir', dataDir];
  const anchors = () =>
    existsSync(join(dataDir, 'audit-anchors.jsonl'))
      ? jsonLines<Anchor>(readFileSync(join(dataDir, 'audit-anchors.jsonl'), 'utf8'))
      : [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tc-embedded-anchors-'));
    const config = loadEmbeddedConfig({
      TOKENCIRCUIT_DATA_DIR: dataDir,
      API_HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      DECISION_ANCHOR_INTERVAL_MS: '200',
    });
    runtime = await startEmbedded(config, DEFAULT_CONFIG, pino({ level: 'silent' }));
    const demo = await runCli(['demo', '--json', ...api()], { timeoutMs: 180_000 });
    expect(demo.code, demo.stderr).toBe(0);
  }, 240_000);

  afterAll(async () => {
    await runtime?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('anchors the demo tenant with a key it keeps (mode 0600) in the data folder', async () => {
    const { rows } = await runtime!.db.query<{ seq: string; hash: string }>(
      "SELECT seq::text AS seq, hash FROM interventions WHERE tenant = 'demo' ORDER BY interventions.seq DESC LIMIT 1",
    );
    const head = rows[0]!;
    const anchor = await waitFor(() => anchors().find((a) => a.tenant === 'demo' && a.chain?.hash === head.hash), {
      name: 'an anchor of the demo tenant at its chain head',
      maxWait: 60_000,
    });
    expect(anchor.events.count).toBeGreaterThan(0);
    expect(statSync(join(dataDir, 'anchor-key.pem')).mode & 0o777).toBe(0o600);
  });

  it('verify --anchor with the data folder file: intact, then the newest intervention deleted is named', async () => {
    const file = join(dataDir, 'audit-anchors.jsonl');
    const intact = await runCli(['verify', ...api(), '--anchor', file]);
    expect(intact.code, intact.stderr).toBe(0);
    expect(intact.stdout).toContain('matches the anchor');

    await runtime!.db.query('ALTER TABLE interventions DISABLE TRIGGER interventions_refuse_delete');
    await runtime!.db.query(
      "DELETE FROM interventions WHERE seq = (SELECT max(seq) FROM interventions WHERE tenant = 'demo')",
    );
    await runtime!.db.query('ALTER TABLE interventions ENABLE TRIGGER interventions_refuse_delete');
    const plain = await runCli(['verify', ...api()]);
    expect(plain.code).toBe(0); // the head alone cannot tell
    const anchored = await runCli(['verify', ...api(), '--anchor', file]);
    expect(anchored.code).toBe(1);
    expect(anchored.stdout).toMatch(/TAMPERED[\s\S]*chain_rows_removed: interventions removed/);
  });
});
