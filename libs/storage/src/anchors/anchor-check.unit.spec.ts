import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAgainstAnchor, type AnchorFacts } from './anchor-check.js';
import { generateAnchorKeyPair, parseAnchorSigningKey } from './anchor-key.js';
import { signAnchor } from './audit-anchor.js';
import { advanceEventsHead, NO_EVENTS, type DigestedEvent } from './events-digest.js';

const key = parseAnchorSigningKey(generateAnchorKeyPair().privateKeyPem);
const event = (seq: number, body = `{"n":${seq}}`): DigestedEvent => ({
  seq,
  id: `e-${seq}`,
  tenant: 'acme',
  run: 'r1',
  agent: null,
  type: 'dev.tokencircuit.tool_call.outcome.v1',
  occurredAt: '2026-12-01T17:00:00.000000Z',
  cloudEvent: body,
});
const events = [event(3), event(5), event(8)];
const eventsHead = advanceEventsHead(NO_EVENTS, events, 10);
const anchor = signAnchor(
  { tenant: 'acme', chain: { seq: 7, hash: '7'.repeat(64) }, events: eventsHead, anchoredAt: '2026-12-01T17:00:00Z' },
  key,
);
const intact: AnchorFacts = {
  tenant: 'acme',
  chainAtAnchor: { seq: 7, hash: '7'.repeat(64) },
  chainHead: { seq: 9, hash: '9'.repeat(64) },
  events: eventsHead,
};
const codes = (facts: AnchorFacts) => checkAgainstAnchor(anchor, facts).map((f) => f.code);

describe('checkAgainstAnchor: the trail must still hold everything the anchor covers', () => {
  it('an intact trail, grown since the anchor, has no finding', () => {
    expect(checkAgainstAnchor(anchor, intact)).toEqual([]);
  });

  it('the newest interventions deleted: named as removed, with both heads', () => {
    const findings = checkAgainstAnchor(anchor, {
      ...intact,
      chainAtAnchor: null,
      chainHead: { seq: 5, hash: '5'.repeat(64) },
    });
    expect(findings).toEqual([
      expect.objectContaining({ code: 'chain_rows_removed', message: expect.stringMatching(/holds #7 .* ends at #5/) }),
    ]);
    expect(codes({ ...intact, chainAtAnchor: null, chainHead: null })).toEqual(['chain_rows_removed']);
  });

  it('the anchored row edited and its hash recomputed: named as rewritten', () => {
    expect(codes({ ...intact, chainAtAnchor: { seq: 7, hash: 'e'.repeat(64) } })).toEqual(['chain_row_rewritten']);
  });

  it('the anchored row gone while later rows exist: named as missing', () => {
    expect(codes({ ...intact, chainAtAnchor: null })).toEqual(['chain_row_missing']);
  });

  it('events removed, inserted below the anchor, or edited in place are each named', () => {
    expect(codes({ ...intact, events: advanceEventsHead(NO_EVENTS, events.slice(0, 2), 10) })).toEqual([
      'events_removed',
    ]);
    expect(codes({ ...intact, events: advanceEventsHead(NO_EVENTS, [...events, event(9)], 10) })).toEqual([
      'events_added',
    ]);
    const edited = [events[0]!, event(5, '{"n":5,"edited":true}'), events[2]!];
    expect(codes({ ...intact, events: advanceEventsHead(NO_EVENTS, edited, 10) })).toEqual(['events_rewritten']);
  });

  it("another tenant's trail is not compared", () => {
    expect(codes({ ...intact, tenant: 'other' })).toEqual(['other_tenant']);
  });

  it('property: changing any one event (any column) changes the digest; folding in pages changes nothing', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 }),
        fc.constantFrom<keyof DigestedEvent>('id', 'run', 'agent', 'type', 'occurredAt', 'cloudEvent'),
        fc.string(),
        (index, column, value) => {
          const changed = events.map((e, i) => (i === index ? { ...e, [column]: `${String(e[column])}${value}x` } : e));
          expect(advanceEventsHead(NO_EVENTS, changed, 10).digest).not.toBe(eventsHead.digest);
          const paged = advanceEventsHead(
            advanceEventsHead(NO_EVENTS, events.slice(0, index), events[index - 1]?.seq ?? 0),
            events.slice(index),
            10,
          );
          expect(paged).toEqual(eventsHead);
        },
      ),
      { numRuns: 100 },
    );
  });
});
