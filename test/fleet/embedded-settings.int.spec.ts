import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '@tokencircuit/governance';
import { EMBEDDED_GROUP, loadEmbeddedConfig } from '../../apps/fleet/src/embedded/embedded-config.js';
import { startEmbedded, type EmbeddedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { CHANGED_SETTINGS, expectChangedBehaviour } from './support/fleet-settings.js';

const API_KEY = 'settings-embedded-key-0123456789';

// The embedded mode reads every module's settings from the same variables as the connected mode
// (connected-settings.int.spec.ts): changed, they change what the modules do.
describe('embedded mode: the environment reaches every module', () => {
  const folders: string[] = [];
  const runtimes: EmbeddedRuntime[] = [];
  afterAll(async () => {
    for (const runtime of runtimes) await runtime.stop();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  function configWith(env: Record<string, string>) {
    const dataDir = mkdtempSync(join(tmpdir(), 'tc-embedded-settings-'));
    folders.push(dataDir);
    return loadEmbeddedConfig({
      TOKENCIRCUIT_DATA_DIR: dataDir,
      TOKENCIRCUIT_API_KEYS: `acme:${API_KEY}`,
      API_HTTP_PORT: '0',
      LOG_LEVEL: 'silent',
      ...env,
    });
  }

  it('reads the projector settings connected mode reads (the bus keeps its own group and topic)', () => {
    const config = configWith({ ...CHANGED_SETTINGS, PROJECTOR_GROUP_ID: 'ignored-here' });
    expect(config.projector).toMatchObject({
      PROJECTOR_GROUP_ID: EMBEDDED_GROUP,
      PROJECTOR_CHUNK_SIZE: 1,
      PROJECTOR_STUCK_READINESS_SECONDS: 7,
      PROJECTOR_WATCH_INTERVAL_MS: 250,
      PROJECTOR_REBASE_ON_TOPIC_RESET: true,
      PROJECTOR_EXIT_ON_FATAL: false,
    });
    expect(config.decision.DECISION_BATCH_SIZE).toBe(7);
    expect(config.api.API_PREFLIGHT_BURST).toBe(2);
    expect(configWith({}).projector).toMatchObject({ PROJECTOR_CHUNK_SIZE: 2_000, PROJECTOR_EXIT_ON_FATAL: true });
  });

  it('PROJECTOR_CHUNK_SIZE=1 makes one projector transaction per record; the API spends the quota it was given', async () => {
    const runtime = await startEmbedded(configWith(CHANGED_SETTINGS), DEFAULT_CONFIG, pino({ level: 'silent' }));
    runtimes.push(runtime);
    await expectChangedBehaviour(runtime.url, API_KEY, `${runtime.url}/metrics`);
  });
});
