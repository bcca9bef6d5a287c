import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, ceTypeOf, cloudEventToAgentEvent, parseAgentEvent } from './agent-event-envelope.js';
import { agentEventInput, traceparent } from './spec-support/arbitraries.js';
import { storableJson } from './storable-text.js';
import { storedAgentEvent } from './stored-agent-event.js';

/** What agent_events.cloud_event holds: the projector's CloudEvent of the decoded event, through a json column. */
const storedRow = (input: unknown, trace?: string) =>
  JSON.parse(JSON.stringify(storableJson(agentEventToCloudEvent(parseAgentEvent(input), trace)))) as Record<
    string,
    unknown
  >;

describe('storedAgentEvent (reading agent_events back)', () => {
  it('gives what the full decode gives, for every row the projector stores', () => {
    fc.assert(
      fc.property(agentEventInput, fc.option(traceparent, { nil: undefined }), (input, trace) => {
        const row = storedRow(input, trace);
        expect(storedAgentEvent(row)).toEqual(cloudEventToAgentEvent(row as never));
      }),
      { numRuns: 300 },
    );
  });

  it('sends a row of an older version through the full decode, upgrades included', () => {
    fc.assert(
      fc.property(agentEventInput, (input) => {
        const row = storedRow(input);
        const older = { ...row, type: String(row['type']).replace(/\.v\d+$/, '.v0') };
        // No type has a v0: the full decode refuses it, as the edge would, instead of taking it as it is.
        expect(() => storedAgentEvent(older)).toThrow(/unsupported version "v0"/);
      }),
      { numRuns: 50 },
    );
  });

  it('refuses a row that is not the shape the projector writes, naming the field', () => {
    const row = storedRow(fc.sample(agentEventInput, { numRuns: 1, seed: 3 })[0]);
    expect(() => storedAgentEvent({ ...row, tenantid: 7 })).toThrow(/tenantid/);
    expect(() => storedAgentEvent({ ...row, data: null })).toThrow();
    expect(() => storedAgentEvent(null)).toThrow();
    const event = storedAgentEvent(row);
    expect(row['type']).toBe(ceTypeOf(event.type));
  });
});
