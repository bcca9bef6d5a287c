import { describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, parseAgentEvent } from './agent-event-envelope.js';
import { CE_CONTENT_TYPE_STRUCTURED, type CloudEvent } from './cloud-event.js';
import { CloudEventDecodeError, fromKafkaRecord, toKafkaRecord, type KafkaRecord } from './kafka-binding.js';
import { ambiguousTimeout } from './spec-support/sample-events.js';
import { thrown } from './spec-support/thrown.js';
import { overTheWire } from './testing/over-the-wire.js';
import { partitionKey } from './topics.js';

const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const event = parseAgentEvent(ambiguousTimeout);
const ce = agentEventToCloudEvent(event, TRACEPARENT);
const key = partitionKey(event.tenant, 'run-5b2d');

const reasonOf = (record: KafkaRecord) => thrown(CloudEventDecodeError, () => fromKafkaRecord(record)).reason;

describe('Kafka binding, structured content mode', () => {
  const record = toKafkaRecord(ce, 'structured', key);

  it('puts the whole event as JSON in the value and only content-type in the headers', () => {
    expect(record.key).toBe('acme/run-5b2d');
    expect(record.headers).toEqual({ 'content-type': 'application/cloudevents+json; charset=UTF-8' });
    expect(JSON.parse(record.value!.toString())).toEqual(ce);
  });

  it('round-trips, extensions included', () => {
    const decoded = fromKafkaRecord(overTheWire(record));
    expect(decoded).toEqual(ce);
    expect(decoded).toMatchObject({ tenantid: 'acme', runid: 'run-5b2d', traceparent: TRACEPARENT });
  });
});

describe('Kafka binding, binary content mode', () => {
  const record = toKafkaRecord(ce, 'binary', key);

  it('maps every attribute to a ce_ header, datacontenttype to content-type, and data to the value', () => {
    expect(record.key).toBe('acme/run-5b2d');
    expect(record.headers).toEqual({
      'content-type': 'application/json',
      ce_specversion: '1.0',
      ce_id: ce.id,
      ce_source: '/tenants/acme/agents/orders-agent',
      ce_type: 'dev.tokencircuit.tool_call.outcome.v3',
      ce_time: ambiguousTimeout.time,
      ce_tenantid: 'acme',
      ce_runid: 'run-5b2d',
      ce_traceparent: TRACEPARENT,
    });
    expect(JSON.parse(record.value!.toString())).toEqual(event.data);
  });

  it('round-trips, extensions included', () => {
    expect(fromKafkaRecord(overTheWire(record))).toEqual(ce);
  });

  it('keeps a non-JSON payload as text', () => {
    const text: CloudEvent = { ...ce, datacontenttype: 'text/plain', data: 'hello' };
    const binary = toKafkaRecord(text, 'binary', null);
    expect(binary.value?.toString()).toBe('"hello"');
    const plain = { ...binary, value: Buffer.from('hello') };
    expect(fromKafkaRecord(plain)).toMatchObject({ datacontenttype: 'text/plain', data: 'hello' });
  });

  it('decodes an event without data from a tombstone value', () => {
    const { data: _, ...withoutData } = ce;
    const decoded = fromKafkaRecord(overTheWire(toKafkaRecord(withoutData, 'binary', key)));
    expect(decoded).not.toHaveProperty('data');
    expect(decoded.id).toBe(ce.id);
  });
});

describe('Kafka binding, decode errors say what is wrong', () => {
  const structured = (value: string | Buffer | null): KafkaRecord => ({
    key,
    value,
    headers: { 'content-type': CE_CONTENT_TYPE_STRUCTURED },
  });

  it('a structured value that is not JSON', () => {
    expect(reasonOf(structured('{"specversion":'))).toMatch(/^value is not JSON: /);
  });

  it('a structured value that is JSON but not an object', () => {
    expect(reasonOf(structured('[1,2]'))).toBe('value is not a JSON object');
  });

  it.each([
    ['null', null],
    ['zero bytes', Buffer.alloc(0)],
  ])('a structured record with an empty value (%s)', (_, value) => {
    expect(reasonOf(structured(value))).toBe('structured CloudEvent with an empty value');
  });

  it('a record in neither mode', () => {
    const plainJson: KafkaRecord = { key, value: Buffer.from(JSON.stringify(event)), headers: {} };
    expect(reasonOf(plainJson)).toBe(
      'not a CloudEvent: neither content-type application/cloudevents+json (structured) nor a ce_specversion header (binary)',
    );
  });

  it('a binary record missing a required attribute', () => {
    const { ce_source: _, ...headers } = toKafkaRecord(ce, 'binary', key).headers;
    expect(reasonOf({ key, value: Buffer.from('{}'), headers })).toMatch(/^invalid CloudEvent: source: /);
  });

  it('a structured record missing a required attribute', () => {
    const { id: _, ...withoutId } = ce;
    expect(reasonOf(structured(JSON.stringify(withoutId)))).toMatch(/^invalid CloudEvent: id: /);
  });

  it('a binary record whose JSON payload does not parse', () => {
    const record = toKafkaRecord(ce, 'binary', key);
    expect(reasonOf({ ...record, value: Buffer.from('{not json') })).toMatch(/^value is not JSON: /);
  });

  it('an extension attribute with an invalid name', () => {
    const record = toKafkaRecord(ce, 'binary', key);
    const headers = { ...record.headers, ce_tenant_id: 'acme' };
    expect(reasonOf({ ...record, headers })).toBe(
      'invalid CloudEvent: tenant_id: "tenant_id" is not a valid CloudEvents attribute name',
    );
  });

  it('a batch of events, which this binding does not accept', () => {
    const batch: KafkaRecord = {
      key,
      value: Buffer.from(JSON.stringify([ce])),
      headers: { 'content-type': 'application/cloudevents-batch+json' },
    };
    expect(reasonOf(batch)).toBe('batched CloudEvents (application/cloudevents-batch+json) are not accepted');
  });

  it('a structured event in a format other than JSON', () => {
    const avro: KafkaRecord = {
      key,
      value: Buffer.from([0x4f, 0x62]),
      headers: { 'content-type': 'application/cloudevents+avro' },
    };
    expect(reasonOf(avro)).toBe('structured CloudEvent in an unsupported format: application/cloudevents+avro');
  });
});
