import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, cloudEventToAgentEvent, parseAgentEvent } from './agent-event-envelope.js';
import { fromKafkaRecord, toKafkaRecord, type ContentMode } from './kafka-binding.js';
import { agentEventInput, traceparent } from './spec-support/arbitraries.js';
import { overTheWire } from './testing/over-the-wire.js';
import { storableJson } from './storable-text.js';
import { partitionKey } from './topics.js';

describe.each<ContentMode>(['structured', 'binary'])('an agent event through Kafka in %s mode', (mode) => {
  it('comes back unchanged, whatever the valid event, except text Postgres cannot store (U+0000, lone surrogates)', () => {
    fc.assert(
      fc.property(agentEventInput, fc.option(traceparent, { nil: undefined }), (input, trace) => {
        const event = parseAgentEvent(input);
        const ce = agentEventToCloudEvent(event, trace);
        const record = overTheWire(
          toKafkaRecord(ce, mode, partitionKey(event.tenant, (ce['runid'] as string) ?? null)),
        );
        const decoded = fromKafkaRecord(record);
        expect(decoded['traceparent']).toBe(trace);
        expect(cloudEventToAgentEvent(decoded)).toEqual(storableJson(event));
      }),
      { numRuns: 300 },
    );
  });
});
