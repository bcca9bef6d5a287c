import { describe, expect, it } from 'vitest';
import { parseAgentEvent } from './agent-event-envelope.js';
import { headerValue, lowerCaseHeaders } from './http-headers.js';
import { transientUnavailable } from './spec-support/sample-events.js';

describe('header names are case-insensitive (RFC 9110 §5.1)', () => {
  it('headerValue finds a field whatever the case of its name', () => {
    expect(headerValue({ 'Retry-After': '5' }, 'retry-after')).toBe('5');
    expect(headerValue({ 'retry-after': '5' }, 'Retry-After')).toBe('5');
    expect(headerValue({ 'content-type': 'text/plain' }, 'retry-after')).toBeNull();
  });

  it('lowerCaseHeaders keeps an all-lower-case record as it is and lower-cases the others', () => {
    const lower = { 'retry-after': '5' };
    expect(lowerCaseHeaders(lower)).toBe(lower);
    expect(lowerCaseHeaders({ 'Retry-After': '5', 'WWW-Authenticate': 'Bearer' })).toEqual({
      'retry-after': '5',
      'www-authenticate': 'Bearer',
    });
  });

  it('combines one field sent under two spellings, in order, within the value limit (RFC 9110 §5.3)', () => {
    expect(lowerCaseHeaders({ Warning: 'a', warning: 'b' })).toEqual({ warning: 'a, b' });
    expect(headerValue({ Warning: 'a', warning: 'b' }, 'warning')).toBe('a, b');
    expect(lowerCaseHeaders({ 'X-Long': 'a'.repeat(8), 'x-long': 'b' }, 8)).toEqual({ 'x-long': 'a'.repeat(8) });
  });

  it('an outcome is decoded with lower-case header names, so every reader sees one spelling', () => {
    const sample = structuredClone(transientUnavailable) as { data: { error: { headers: Record<string, string> } } };
    sample.data.error.headers = { 'Retry-After': '30', 'X-RateLimit-Remaining': '0' };
    const event = parseAgentEvent(sample);
    expect(event.type === 'tool_call.outcome' && event.data.error?.headers).toEqual({
      'retry-after': '30',
      'x-ratelimit-remaining': '0',
    });
  });
});
