import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EpisodeEventDataSchema, TOPICS, type EpisodeEventData } from '@tokencircuit/contracts';
import { OutboxRelay } from '@tokencircuit/decision-relay';
import { createGovernance, DEFAULT_CONFIG, episodeIdOf, type OutboxEntry } from '@tokencircuit/governance';
import { InProcessBus } from '@tokencircuit/bus';
import { pgDatabase } from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import { BusInterventionPublisher } from '../../apps/fleet/src/embedded/bus-adapters.js';
import { SpecAgent, SpecOperator, Timeline } from '@tokencircuit/contracts/testing';

const governance = createGovernance(DEFAULT_CONFIG);

// The decision relay records each episode step in the audit trail and publishes it with a stable id, in the
// claim's transaction: a round retried after a crash publishes the same steps again, recorded once.
describe('episode lifecycle in the decision relay (real Postgres)', () => {
  let db: TestDatabase;
  let entries: readonly OutboxEntry[];
  const timeline = new Timeline('2026-12-01T09:00:00.000Z');
  const agent = new SpecAgent(timeline, 'acme', 'billing', 'run-5', {
    resourceClass: 'api_endpoint',
    effect: 'write',
    httpMethod: 'POST',
  });
  const oncall = new SpecOperator(timeline, 'acme', 'alice@acme');
  const keyId = 'run|acme|run=run-5|create_invoice|api_endpoint|~|ambiguous_effect|seb=1';
  const create = agent.call('create_invoice', { arguments: { amount: 10 } });

  beforeAll(async () => {
    db = await createTestDatabase('tc_episode_lifecycle');
    const events = [
      agent.unknown(create, { message: 'timeout after send' }, { requestSent: true }),
      agent.verified(create, 'read_after_write', 'inconclusive'),
      oncall.resolves(keyId, 'acknowledged', 'checking by hand'),
      agent.verified(create, 'read_after_write', 'confirmed'),
    ];
    entries = governance.replay(events).outbox;
    for (const e of entries) {
      await db.pool.query(
        `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ($1, $2, $3, $4, $5)`,
        [e.id, e.tenant, e.keyId, e.stateVersion, JSON.stringify(e.snapshot)],
      );
    }
  });
  afterAll(async () => db?.drop());

  const relayOnto = (received: EpisodeEventData[], interventions: string[]) => {
    const bus = new InProcessBus(TOPICS.episodes.partitions);
    bus.subscribe(TOPICS.episodes.name, async (records) => {
      for (const r of records) received.push(EpisodeEventDataSchema.parse(JSON.parse(String(r.value)).data));
    });
    bus.subscribe(TOPICS.interventions.name, async (records) => {
      for (const r of records) interventions.push(JSON.parse(String(r.value)).id);
    });
    return new OutboxRelay(pgDatabase(db.pool), new BusInterventionPublisher(bus), DEFAULT_CONFIG, 100);
  };

  it('records and publishes triggered → escalated → acknowledged → resolved under one episode id', async () => {
    const received: EpisodeEventData[] = [];
    const interventions: string[] = [];
    // One row per round, as separate notifications would claim them.
    const relay = relayOnto(received, interventions);
    for (const e of entries) await relay.round([e.id]);
    expect(received.map((s) => s.transition)).toEqual(['triggered', 'escalated', 'acknowledged', 'resolved']);
    expect(new Set(received.map((s) => s.episodeId))).toEqual(new Set([episodeIdOf(keyId, 1)]));
    expect(received[2]!.actor).toEqual({ kind: 'operator', by: 'alice@acme', reason: 'checking by hand' });
    // The acknowledgement issued no intervention: the agents have nothing new to act on.
    expect(interventions).toHaveLength(entries.length - 1);
    const { rows } = await db.pool.query<{ transition: string; event_id: string }>(
      'SELECT transition, event_id FROM episode_events ORDER BY seq',
    );
    expect(rows.map((r) => r.transition)).toEqual(['triggered', 'escalated', 'acknowledged', 'resolved']);
    expect(rows.map((r) => r.event_id)).toEqual(received.map((s) => s.eventId));
  });

  it('a round retried after a crash (rows pending again) publishes nothing new and records nothing twice', async () => {
    await db.pool.query('UPDATE decision_outbox SET published_at = NULL');
    const received: EpisodeEventData[] = [];
    await relayOnto(received, []).round();
    expect(received).toEqual([]); // every snapshot is at or behind the recorded steps
    const { rows } = await db.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM episode_events');
    expect(rows[0]!.n).toBe(4);
  });

  it('the audit trail refuses to edit or delete a recorded step', async () => {
    await expect(db.pool.query(`UPDATE episode_events SET level = 'advise'`)).rejects.toThrow(/append-only/);
    await expect(db.pool.query('DELETE FROM episode_events')).rejects.toThrow(/append-only/);
  });

  it('the whole backlog in one round yields the same steps, in version order per key', async () => {
    const fresh = await createTestDatabase('tc_episode_lifecycle_batch');
    try {
      for (const e of [...entries].reverse()) {
        await fresh.pool.query(
          `INSERT INTO decision_outbox (id, tenant, key_id, state_version, state_snapshot) VALUES ($1, $2, $3, $4, $5)`,
          [e.id, e.tenant, e.keyId, e.stateVersion, JSON.stringify(e.snapshot)],
        );
      }
      const bus = new InProcessBus(1);
      const received: string[] = [];
      bus.subscribe(TOPICS.episodes.name, async (records) => {
        for (const r of records) received.push(JSON.parse(String(r.value)).data.transition);
      });
      const round = await new OutboxRelay(
        pgDatabase(fresh.pool),
        new BusInterventionPublisher(bus),
        DEFAULT_CONFIG,
        100,
      ).round();
      expect(round.episodes.map((s) => s.transition)).toEqual(['triggered', 'escalated', 'acknowledged', 'resolved']);
      expect(received).toEqual(['triggered', 'escalated', 'acknowledged', 'resolved']);
    } finally {
      await fresh.drop();
    }
  });
});
