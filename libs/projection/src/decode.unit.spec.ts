import { describe, expect, it } from 'vitest';
import { agentEventToCloudEvent, parseAgentEvent, toKafkaRecord, type AgentEventInput } from '@tokencircuit/contracts';
import { decodeRecord } from './decode.js';
import type { InboundRecord } from './inbound-record.js';

const recordOf = (input: AgentEventInput): InboundRecord => {
  const record = toKafkaRecord(agentEventToCloudEvent(parseAgentEvent(input)), 'structured', 'acme/run-1');
  return {
    topic: 'agent-events',
    partition: 0,
    offset: '7',
    key: record.key === null ? null : Buffer.from(record.key),
    value: record.value === null ? null : Buffer.from(record.value),
    headers: record.headers,
  };
};

const outcome = (id: string, resourceId: string): AgentEventInput => ({
  type: 'tool_call.outcome',
  id,
  tenant: 'acme',
  time: '2026-11-29T10:00:00Z',
  data: {
    call: { agent: 'a', run: 'run-1', callId: 'c', attempt: 1, intentId: 'i', tool: 't', effect: 'read', resourceId },
    status: 'failed',
    error: {
      httpStatus: 403,
      name: 'AccessDenied AKIAIOSFODNN7EXAMPLE',
      headers: { 'x-amz-security-token': 'FwoGZXIvYXdzEBY' },
    },
  },
});

describe('decodeRecord: the projector edge redacts before anything is stored', () => {
  it('hands on the event with every secret gone (resource id, error name, header values)', () => {
    const decoded = decodeRecord(recordOf(outcome('e-1', 'https://u:Hunter2Hunter2@host/db')));
    expect(decoded.ok).toBe(true);
    const text = JSON.stringify(decoded.ok && decoded.event);
    for (const secret of ['Hunter2Hunter2', 'AKIAIOSFODNN7EXAMPLE', 'FwoGZXIvYXdzEBY'])
      expect(text).not.toContain(secret);
  });

  it('parks an event whose id holds a credential, with a reason that does not repeat it', () => {
    const decoded = decodeRecord(recordOf(outcome('ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', 'r')));
    expect(decoded.ok).toBe(false);
    if (decoded.ok) return;
    expect(decoded.deadLetter).toMatchObject({ code: 'invalid_field' });
    expect(decoded.deadLetter.reason).not.toContain('aBcDeFgHiJkLmNoPqRsTuVwXyZ');
  });
});
