import { CloudEvent as SdkCloudEvent, Kafka, type KafkaMessage } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import {
  agentEventToCloudEvent,
  cloudEventToAgentEvent,
  cloudEventToIntervention,
  interventionToCloudEvent,
  parseAgentEvent,
} from './agent-event-envelope.js';
import { CloudEventSchema, type CloudEvent } from './cloud-event.js';
import { fromKafkaRecord, toKafkaRecord, type KafkaRecord } from './kafka-binding.js';
import { SAMPLE_EVENTS } from './spec-support/sample-events.js';
import { permissionBlock } from './spec-support/sample-intervention.js';
import { partitionKey } from './topics.js';

// The reference implementation (cloudevents v10) is the second opinion on our hand-written binding:
// what we encode it must accept, and what it encodes we must accept.

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const events = SAMPLE_EVENTS.map((sample) => parseAgentEvent(sample));
const cases = events.map((event) => [`${event.type} ${event.id}`, agentEventToCloudEvent(event, TRACEPARENT)] as const);

/** Our record as the SDK's Kafka deserializer takes it (a kafkajs message plus its `body` view). */
const forSdk = (record: KafkaRecord): KafkaMessage => ({
  key: record.key ?? '',
  value: record.value,
  body: record.value,
  headers: Object.fromEntries(Object.entries(record.headers).map(([name, v]) => [name, v?.toString()])),
});

/** The SDK leaves the value unserialized in binary mode; a kafkajs producer needs bytes, as JSON. */
const fromSdk = (message: KafkaMessage): KafkaRecord => ({
  key: message.key === undefined ? null : message.key,
  value:
    message.value === undefined
      ? null
      : Buffer.from(typeof message.value === 'string' ? message.value : JSON.stringify(message.value)),
  headers: message.headers as KafkaRecord['headers'],
});

/** The SDK writes times as UTC; the instant is what must survive. */
const sameInstant = (a: string | undefined, b: string | undefined) => expect(Date.parse(a!)).toBe(Date.parse(b!));

/** The SDK's view of an event as plain attributes, without its class's undefined placeholders. */
const attributesOf = (event: unknown) =>
  Object.fromEntries(Object.entries(event as Record<string, unknown>).filter(([, v]) => v !== undefined));

describe('our CloudEvents, judged by the cloudevents SDK', () => {
  it.each(cases)('%s passes its strict validation', (_, ce) => {
    expect(() => new SdkCloudEvent(ce)).not.toThrow();
  });

  it('an intervention passes its strict validation', () => {
    expect(() => new SdkCloudEvent(interventionToCloudEvent(permissionBlock, TRACEPARENT))).not.toThrow();
  });

  it.each(cases)('%s in structured mode is read back by Kafka.toEvent', (_, ce) => {
    const record = toKafkaRecord(ce, 'structured', partitionKey(ce['tenantid'] as string, null));
    const message = forSdk(record);
    expect(Kafka.isEvent(message)).toBe(true);
    const sdkEvent = Kafka.toEvent(message) as SdkCloudEvent;
    expect(sdkEvent.validate()).toBe(true);
    const { partitionkey, time, ...read } = attributesOf(sdkEvent);
    expect(partitionkey).toBe(record.key);
    sameInstant(time as string, ce.time);
    const { time: _time, ...expected } = ce;
    expect(read).toEqual(expected);
  });

  it.each(cases)('%s in binary mode is read back by Kafka.toEvent', (_, ce) => {
    const record = toKafkaRecord(ce, 'binary', partitionKey(ce['tenantid'] as string, null));
    const message = forSdk(record);
    expect(Kafka.isEvent(message)).toBe(true);
    const sdkEvent = Kafka.toEvent(message) as SdkCloudEvent;
    expect(sdkEvent.validate()).toBe(true);
    const { partitionkey, time, ...read } = attributesOf(sdkEvent);
    expect(partitionkey).toBe(record.key);
    sameInstant(time as string, ce.time);
    const { time: _time, ...expected } = ce;
    expect(read).toEqual(expected);
  });
});

describe('the cloudevents SDK, judged by our binding', () => {
  /** What a producer using the SDK would build for our event: same attributes, plus the Kafka key. */
  const sdkEventOf = (ce: CloudEvent) =>
    new SdkCloudEvent({ ...ce, partitionkey: partitionKey(ce['tenantid'] as string, null) });

  it.each(cases)('%s from Kafka.structured decodes to the same agent event', (_, ce) => {
    const decoded = fromKafkaRecord(fromSdk(Kafka.structured(sdkEventOf(ce))));
    const event = cloudEventToAgentEvent(decoded);
    const original = cloudEventToAgentEvent(ce);
    sameInstant(event.time, original.time);
    expect({ ...event, time: original.time }).toEqual(original);
  });

  it.each(cases)('%s from Kafka.binary decodes to the same agent event', (_, ce) => {
    const decoded = fromKafkaRecord(fromSdk(Kafka.binary(sdkEventOf(ce))));
    expect(cloudEventToAgentEvent(decoded)).toEqual(cloudEventToAgentEvent(ce));
  });

  it('an intervention from Kafka.binary decodes to the same intervention', () => {
    const ce = interventionToCloudEvent(permissionBlock);
    const decoded = fromKafkaRecord(fromSdk(Kafka.binary(new SdkCloudEvent(ce))));
    expect(cloudEventToIntervention(decoded)).toEqual(permissionBlock);
  });

  it.each([['tenantid'], ['traceparent'], ['tenant_id'], ['tenantId'], ['tenant-id'], ['t3']])(
    'agrees on whether %s is a valid attribute name',
    (name) => {
      const attributes = { specversion: '1.0', id: 'e', source: '/s', type: 't', [name]: 'v' } as const;
      const sdkAccepts = (() => {
        try {
          new SdkCloudEvent(attributes);
          return true;
        } catch {
          return false;
        }
      })();
      expect(CloudEventSchema.safeParse(attributes).success).toBe(sdkAccepts);
    },
  );
});
