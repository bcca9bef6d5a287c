import { describe, expect, it } from 'vitest';
import { LIMITS } from '@tokencircuit/contracts';
import { InvalidRequestError, PayloadTooLargeError, TenantMismatchError } from '../http/api-errors.js';
import { permissionDenied, requested, toolCall } from '@tokencircuit/contracts/testing';
import { MAX_BATCH_EVENTS, parseIngestBody } from './ingest-request.js';

const thrown = (work: () => unknown): unknown => {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
};

describe('POST /v1/events body', () => {
  it('accepts one event, with its defaults filled in', () => {
    const event = requested('acme');
    const [parsed] = parseIngestBody(event, 'acme');
    expect(parsed).toMatchObject({ id: event.id, tenant: 'acme', type: 'tool_call.requested' });
    expect(parsed!.type === 'tool_call.requested' && parsed!.data.call.idempotencyKey).toBeNull();
  });

  it('accepts a batch and keeps its order', () => {
    const batch = [requested('acme'), permissionDenied('acme'), requested('acme')];
    expect(parseIngestBody({ events: batch }, 'acme').map((e) => e.id)).toEqual(batch.map((e) => e.id));
  });

  it('takes a v1 verifier result (passed, no finding), converted to v2 and redacted, and answers 400 for a v2 one without a finding', () => {
    const verifier = (data: object) => ({
      type: 'verifier.result',
      id: 'v-1',
      tenant: 'acme',
      time: '2026-12-01T10:00:00Z',
      data: { agent: 'a', run: 'r', callId: 'c', tool: 't', verifier: 'read_after_write', ...data },
    });
    const [parsed] = parseIngestBody(
      verifier({
        passed: true,
        resolved: { effectApplied: false },
        detail: 'key ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
      }),
      'acme',
    );
    expect(parsed!.data).toMatchObject({ finding: 'refuted' });
    expect(JSON.stringify(parsed)).not.toContain('aBcDeFgHiJkLmNoPqRsTuVwXyZ');
    expect(thrown(() => parseIngestBody(verifier({ resolved: {} }), 'acme'))).toMatchObject({
      field: 'data.finding',
    });
  });

  it('redacts every field before anything is published: resource id, error name, arguments', () => {
    const event = permissionDenied(
      'acme',
      toolCall({
        resourceId: 'https://ci:ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789@github.com/acme/repo',
        arguments: { api_key: 'k-123', q: 'SELECT 1' },
      }),
    );
    const [parsed] = parseIngestBody(event, 'acme');
    const text = JSON.stringify(parsed);
    expect(text).not.toContain('ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789');
    expect(text).not.toContain('k-123');
    expect(text).toContain('"q":"SELECT 1"');
  });

  it('refuses with 400 an event whose id holds a credential, rather than storing or rewriting it', () => {
    const event = { ...requested('acme'), id: 'xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx' };
    const error = thrown(() => parseIngestBody({ events: [requested('acme'), event] }, 'acme'));
    expect(error).toMatchObject({ status: 400, code: 'invalid_field', field: 'id', index: 1 });
    expect(String((error as Error).message)).not.toContain('AbCdEfGhIjKlMnOpQrStUvWx');
  });

  it('names the offending field and the index of the event in a batch', () => {
    const bad = requested('acme', toolCall({ tool: '' }));
    const error = thrown(() => parseIngestBody({ events: [requested('acme'), bad] }, 'acme'));
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect(error).toMatchObject({ status: 400, code: 'invalid_field', field: 'data.call.tool', index: 1 });
  });

  it('has no index for a single event', () => {
    const { time: _time, ...withoutTime } = requested('acme');
    expect(thrown(() => parseIngestBody(withoutTime, 'acme'))).toMatchObject({ field: 'time', index: null });
  });

  it('refuses an event of another tenant, all or nothing', () => {
    const error = thrown(() => parseIngestBody({ events: [requested('acme'), requested('globex')] }, 'acme'));
    expect(error).toBeInstanceOf(TenantMismatchError);
    expect(error).toMatchObject({ status: 403, code: 'tenant_mismatch', index: 1 });
    expect((error as Error).message).not.toContain('globex');
  });

  it('refuses bodies that are neither an event nor a batch of 1..500', () => {
    expect(thrown(() => parseIngestBody([requested('acme')], 'acme'))).toMatchObject({ field: '(body)' });
    expect(thrown(() => parseIngestBody('x', 'acme'))).toMatchObject({ field: '(body)' });
    expect(thrown(() => parseIngestBody({ events: 'x' }, 'acme'))).toMatchObject({ field: 'events' });
    expect(thrown(() => parseIngestBody({ events: [] }, 'acme'))).toMatchObject({ field: 'events' });
    const tooMany = Array.from({ length: MAX_BATCH_EVENTS + 1 }, () => requested('acme'));
    expect(thrown(() => parseIngestBody({ events: tooMany }, 'acme'))).toMatchObject({
      code: 'too_many_events',
      field: 'events',
    });
  });

  it('answers 413 for an event above the per-event limit', () => {
    const huge = requested('acme', toolCall({ arguments: {} }));
    (huge as { data: { call: { sqlStatement: string } } }).data.call.sqlStatement = 'x'.repeat(LIMITS.eventBytes);
    const error = thrown(() => parseIngestBody({ events: [requested('acme'), huge] }, 'acme'));
    expect(error).toBeInstanceOf(PayloadTooLargeError);
    expect(error).toMatchObject({ status: 413, index: 1 });
  });
});
