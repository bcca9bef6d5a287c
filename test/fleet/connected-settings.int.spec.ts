import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, testBrokers, type TestDatabase } from '@tokencircuit/testing';
import { composeConnected, type ConnectedRuntime } from '../../apps/fleet/src/fleet-modes.js';
import { CHANGED_SETTINGS, expectChangedBehaviour } from './support/fleet-settings.js';
import { freePort } from '../support/free-port.js';

const API_KEY = 'settings-connected-key-0123456789';

// The connected `npm start` composition (apps/fleet/src/fleet-modes.ts) in this process, on a migrated
// database and topics of its own: the same variables as embedded-settings.int.spec.ts change the same behaviour.
describe('connected mode: the environment reaches every module', () => {
  let db: TestDatabase | undefined;
  let runtime: ConnectedRuntime | undefined;
  afterAll(async () => {
    await runtime?.stop();
    await db?.drop();
  });

  it('PROJECTOR_CHUNK_SIZE=1 makes one projector transaction per record; the API spends the quota it was given', async () => {
    db = await createTestDatabase('tc_connected_settings');
    const prefix = `tc-settings-${randomUUID().slice(0, 8)}`;
    const [api, projector, decision] = [await freePort(), await freePort(), await freePort()];
    runtime = await composeConnected({
      KAFKA_BROKERS: testBrokers().join(','),
      DATABASE_URL: db.url,
      TOKENCIRCUIT_API_KEYS: `acme:${API_KEY}`,
      API_HTTP_PORT: String(api),
      PROJECTOR_HTTP_PORT: String(projector),
      DECISION_HTTP_PORT: String(decision),
      PROJECTOR_GROUP_ID: `${prefix}-projector`,
      AGENT_EVENTS_TOPIC: `${prefix}.agent-events`,
      DLQ_TOPIC: `${prefix}.dlq`,
      INTERVENTIONS_TOPIC: `${prefix}.interventions`,
      EPISODES_TOPIC: `${prefix}.episodes`,
      AUDIT_ANCHORS_TOPIC: `${prefix}.anchors`,
      LOG_LEVEL: 'silent',
      ...CHANGED_SETTINGS,
    });
    expect(runtime.config.projector).toMatchObject({
      PROJECTOR_CHUNK_SIZE: 1,
      PROJECTOR_STUCK_READINESS_SECONDS: 7,
      PROJECTOR_WATCH_INTERVAL_MS: 250,
      PROJECTOR_REBASE_ON_TOPIC_RESET: true,
      PROJECTOR_EXIT_ON_FATAL: false,
    });
    expect(runtime.config.decision.DECISION_BATCH_SIZE).toBe(7);
    expect([...runtime.contexts.keys()]).toEqual(['projector', 'decision', 'api']);

    await expectChangedBehaviour(runtime.url, API_KEY, `http://127.0.0.1:${projector}/metrics`);
  }, 300_000);
});
