import type { INestApplication } from '@nestjs/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEventRecord, type AgentEvent } from '@tokencircuit/contracts';
import { createTestDatabase, generateTrace, type TestDatabase } from '@tokencircuit/testing';
import { provisionProjectorTarget, startProjectorInProcess, waitUntilCaughtUp } from './support/projector-harness.js';
import { headerValues, kcatConsumeAll, kcatProduce, requireKcat, type KcatCodec } from './support/kcat.js';

/** One event as a kcat run produces it: binary mode (ce_ headers), or structured (one JSON line). */
function produceEvent(
  topic: string,
  event: AgentEvent,
  mode: 'binary' | 'structured',
  extraHeaders: readonly (readonly [string, string])[] = [],
  codec: KcatCodec = 'none',
): void {
  const record = agentEventRecord(event, mode);
  const headers = Object.entries(record.headers).map(([name, value]) => [name, String(value)] as const);
  kcatProduce(topic, [{ key: String(record.key), value: String(record.value) }], {
    codec,
    headers: [...headers, ...extraHeaders],
  });
}

// Kafka allows a header name more than once in one record; kafkajs hands such a header over as an array.
// Finding (issue 28): parking a record with a repeated header threw a TypeError in the dead-letter sink, retried
// forever, and the partition never moved again. Every record must be projected or parked, whatever its headers.
describe('repeated headers (records produced by kcat, real Kafka, real Postgres)', () => {
  let db: TestDatabase;
  let app: INestApplication | undefined;
  beforeAll(async () => {
    requireKcat();
    db = await createTestDatabase('repeated_headers');
  });
  afterAll(async () => {
    await app?.close();
    await db?.drop();
  });

  it('unknown repeated headers are ignored, a repeated header the binding reads is parked, and nothing stalls', async () => {
    const target = await provisionProjectorTarget(db.url, 'repeated-headers');
    const events = generateTrace({ events: 8, seed: 2801, tenants: 1 });
    const tenant = events[0]!.tenant;
    // Offsets 0-1: valid events with an unknown header twice (binary and structured): projected.
    produceEvent(target.topic, events[0]!, 'binary', [
      ['x-vendor-hop', 'gateway-a'],
      ['x-vendor-hop', 'gateway-b'],
    ]);
    produceEvent(target.topic, events[1]!, 'structured', [
      ['x-vendor-hop', 'gateway-a'],
      ['x-vendor-hop', 'gateway-b'],
    ]);
    // Offset 2: a valid event with traceparent twice: W3C Trace Context ignores an ambiguous one; projected.
    produceEvent(target.topic, events[2]!, 'binary', [
      ['traceparent', '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'],
      ['traceparent', '00-11111111111111111111111111111111-2222222222222222-01'],
    ]);
    // Offset 3: two ce_tenantid headers (the finding's second shape): which tenant? Parked, never guessed.
    produceEvent(target.topic, events[3]!, 'binary', [['ce_tenantid', 'another-tenant']]);
    // Offset 4: a record that is poison anyway (not JSON) and carries a repeated header: parked, both values kept.
    kcatProduce(target.topic, [{ key: 'poison', value: '{"specversion":' }], {
      headers: [
        ['content-type', 'application/cloudevents+json'],
        ['x-vendor-hop', 'gateway-a'],
        ['x-vendor-hop', 'gateway-b'],
      ],
    });
    // Offset 5: two content-type headers: which content mode? Parked.
    produceEvent(target.topic, events[4]!, 'structured', [['content-type', 'application/json']]);
    // Offsets 6-8: valid events after them: the partition must move on.
    for (const event of events.slice(5)) produceEvent(target.topic, event, 'binary');

    app = await startProjectorInProcess(target, undefined, { PROJECTOR_WATCH_INTERVAL_MS: '200' });
    await waitUntilCaughtUp(db.pool, target, 60_000);

    const { rows } = await db.pool.query<{ id: string }>('SELECT id FROM agent_events WHERE tenant = $1', [tenant]);
    const applied = [events[0]!, events[1]!, events[2]!, ...events.slice(5)].map((e) => e.id).sort();
    expect(rows.map((r) => r.id).sort()).toEqual(applied);

    const parked = kcatConsumeAll(target.dlqTopic);
    const byOffset = new Map(parked.map((r) => [headerValues(r, 'tc-dlq-source-offset')[0], r]));
    expect([...byOffset.keys()].sort()).toEqual(['3', '4', '5']);
    const reason = (offset: string) => headerValues(byOffset.get(offset)!, 'tc-dlq-reason')[0];
    expect(reason('3')).toMatch(/ce_tenantid.*(repeated|2 values)/);
    expect(reason('5')).toMatch(/content-type.*(repeated|2 values)/);
    // The copy keeps every header of the original, repeated ones included, in order.
    expect(headerValues(byOffset.get('4')!, 'x-vendor-hop')).toEqual(['gateway-a', 'gateway-b']);
    expect(headerValues(byOffset.get('3')!, 'ce_tenantid')).toEqual([tenant, 'another-tenant']);
    expect(byOffset.get('4')!.payload).toBe('{"specversion":');

    const url = await app.getUrl();
    expect((await fetch(`${url}/health/ready`)).status).toBe(200);
  }, 120_000);
});
