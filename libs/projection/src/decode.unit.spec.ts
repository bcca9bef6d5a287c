import { describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, parseAgentEvent, toKafkaRecord, type AgentEventInput } from '@tokencircuit/contracts';
import { consumedRecord, outcome, verifierResult } from '@tokencircuit/contracts/testing';
import { decode } from './decode.js';
import type { InboundRecord } from './inbound-record.js';

const recordOf = (input: AgentEventInput): InboundRecord =>
  consumedRecord(parseAgentEvent(input), { topic: 'agent-events', partition: 0, offset: '7' }, 'structured');

const outcomeOf = (id: string, resourceId: string): AgentEventInput =>
  outcome(
    'acme',
    { agent: 'a', run: 'run-1', callId: 'c', attempt: 1, intentId: 'i', tool: 't', effect: 'read', resourceId },
    {
      status: 'failed',
      error: {
        httpStatus: 403,
        name: 'AccessDenied AKIAIOSFODNN7EXAMPLE',
        headers: { 'x-amz-security-token': 'FwoGZXIvYXdzEBY' },
      },
    },
    { id, time: '2026-11-29T10:00:00Z' },
  );

describe('decode: the projector edge redacts before anything is stored', () => {
  it('hands on the event with every secret gone (resource id, error name, header values)', () => {
    const decoded = decode(recordOf(outcomeOf('e-1', 'https://u:Hunter2Hunter2@host/db')));
    expect(decoded.ok).toBe(true);
    const text = JSON.stringify(decoded.ok && decoded.event);
    for (const secret of ['Hunter2Hunter2', 'AKIAIOSFODNN7EXAMPLE', 'FwoGZXIvYXdzEBY'])
      expect(text).not.toContain(secret);
  });

  it('parks an event whose id holds a credential, with a reason that does not repeat it', () => {
    const decoded = decode(recordOf(outcomeOf('ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', 'r')));
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.deadLetter).toMatchObject({ code: 'invalid_field' });
    expect(decoded.deadLetter.reason).not.toContain('aBcDeFgHiJkLmNoPqRsTuVwXyZ');
  });

  it('redacts the fields contract v2 added: error code, error details (sub-codes, reasons, types, domains)', () => {
    const base = outcomeOf('e-2', 'r') as { data: { error: object } } & AgentEventInput;
    const v2 = {
      ...base,
      data: {
        ...base.data,
        provider: 'stripe',
        protocol: 'http',
        error: {
          httpStatus: 402,
          code: 'card_declined sk_live_51HxAbCdEfGhIjKlMnOpQrSt',
          details: [
            {
              type: 'card_error',
              code: 'AKIAIOSFODNN7EXAMPLE',
              reason: 'see https://u:Hunter2Hunter2@host/db',
              domain: 'stripe.com',
            },
          ],
        },
      },
    } as AgentEventInput;
    const decoded = decode(recordOf(v2));
    expect(decoded.ok).toBe(true);
    const text = JSON.stringify(decoded.ok && decoded.event);
    for (const secret of ['sk_live_51HxAbCdEfGhIjKlMnOpQrSt', 'AKIAIOSFODNN7EXAMPLE', 'Hunter2Hunter2'])
      expect(text).not.toContain(secret);
    expect(text).toContain('card_declined');
  });

  it('parks an outcome whose provider holds a credential, without repeating it', () => {
    const base = outcomeOf('e-3', 'r') as { data: object } & AgentEventInput;
    const decoded = decode(
      recordOf({
        ...base,
        data: { ...base.data, provider: 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789' },
      } as AgentEventInput),
    );
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.deadLetter).toMatchObject({ code: 'invalid_field' });
    expect(decoded.deadLetter.reason).toMatch(/data\.provider/);
    expect(decoded.deadLetter.reason).not.toContain('abcdefghijklmnopqrstuvwxyz');
  });

  it('converts a v1 verifier CloudEvent and redacts its detail and resolved identifier', () => {
    const v2 = parseAgentEvent(
      verifierResult(
        'acme',
        { agent: 'a', run: 'run-1', callId: 'c', tool: 't', verifier: 'resource_resolution', finding: 'confirmed' },
        { id: 'e-4', time: '2026-11-29T10:00:01Z' },
      ),
    );
    const ce = {
      ...agentEventToCloudEvent(v2),
      type: 'dev.tokencircuit.verifier.result.v1',
      data: {
        agent: 'a',
        run: 'run-1',
        callId: 'c',
        tool: 't',
        verifier: 'resource_resolution',
        passed: true,
        resolved: { resolvedResourceId: 'db AKIAIOSFODNN7EXAMPLE' },
        detail: 'found with Bearer ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
      },
    };
    const record = toKafkaRecord(ce as never, 'binary', 'acme/run-1');
    const decoded = decode({
      topic: 'agent-events',
      partition: 0,
      offset: '8',
      key: record.key === null ? null : Buffer.from(record.key),
      value: record.value === null ? null : Buffer.from(record.value),
      headers: record.headers,
    });
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.event.event.data).toMatchObject({ finding: 'confirmed' });
    const text = JSON.stringify(decoded.event);
    for (const secret of ['AKIAIOSFODNN7EXAMPLE', 'aBcDeFgHiJkLmNoPqRsTuVwXyZ']) expect(text).not.toContain(secret);
  });
});

describe('decode: repeated headers (Kafka allows a name twice; kafkajs gives every value)', () => {
  const binary = (extra: Record<string, string | string[]>): InboundRecord => {
    const record = toKafkaRecord(
      agentEventToCloudEvent(parseAgentEvent(outcomeOf('e-h', 'r'))),
      'binary',
      'acme/run-1',
    );
    return {
      topic: 't',
      partition: 0,
      offset: '3',
      key: null,
      value: record.value as Buffer,
      headers: { ...record.headers, ...extra },
    };
  };

  it('ignores a repeated header the binding does not read', () => {
    expect(decode(binary({ 'x-vendor-hop': ['a', 'b'] })).ok).toBe(true);
  });

  it('ignores a repeated traceparent (two parents: neither is trusted) and still projects', () => {
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
    const decoded = decode(binary({ traceparent: [parent, parent.replace('0af7', '1af7')] }));
    expect(decoded.ok && decoded.event.traceparent).toBe(null);
  });

  it.each(['ce_tenantid', 'ce_type', 'ce_specversion', 'content-type'])(
    'parks a repeated %s as repeated_header',
    (name) => {
      const base = binary({});
      const decoded = decode({
        ...base,
        headers: { ...base.headers, [name]: [String(base.headers[name] ?? 'x'), 'other'] },
      });
      expect(decoded.ok).toBe(false);
      if (decoded.ok) return;
      expect(decoded.deadLetter.code).toBe('repeated_header');
      expect(decoded.deadLetter.reason).toContain(`header ${name} is repeated (2 values)`);
    },
  );
});

describe('decode: a stand-in for a record of a batch no codec could read', () => {
  it('is refused as unreadable_batch with the reason, by its coordinates alone', () => {
    const unreadable = 'lz4 could not decompress the record batch: Error: bad frame (offsets 40..59, 20 record(s))';
    const decoded = decode({ topic: 't', partition: 2, offset: '41', key: null, value: null, headers: {}, unreadable });
    expect(decoded).toMatchObject({ ok: false, deadLetter: { code: 'unreadable_batch', reason: unreadable } });
  });
});
