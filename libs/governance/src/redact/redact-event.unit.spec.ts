import { describe, expect, it } from 'vitest';
import { parseAgentEvent, type AgentEvent } from '@tokencircuit/contracts';
import { redactEvent } from './redact-event.js';

const call = {
  agent: 'a',
  run: 'r',
  callId: 'c',
  attempt: 1,
  intentId: 'i',
  tool: 'sql_exec',
  effect: 'write',
  sqlStatement: "ALTER USER app WITH PASSWORD 'x' -- postgres://admin:hunter2@db/prod",
  arguments: { token: 'kept-as-is' },
};

describe('redactEvent', () => {
  it('removes secrets from the error message, header values and SQL, and leaves the arguments alone', () => {
    const event = parseAgentEvent({
      type: 'tool_call.outcome',
      id: 'e1',
      tenant: 't',
      time: '2026-11-29T10:00:00Z',
      data: {
        call,
        status: 'failed',
        error: {
          httpStatus: 401,
          message:
            'invalid token Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
          headers: { 'www-authenticate': 'Bearer realm="api"', 'x-debug': 'postgres://admin:hunter2@db/prod' },
        },
      },
    });
    const clean = redactEvent(event) as Extract<AgentEvent, { type: 'tool_call.outcome' }>;
    const text = JSON.stringify(clean);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('eyJzdWIiOiIxMjM0NTY3ODkwIn0');
    expect(clean.data.call.arguments).toEqual({ token: 'kept-as-is' });
    expect(clean.data.error?.httpStatus).toBe(401);
    expect(redactEvent(clean)).toBe(clean); // idempotent, and no copy when nothing changes
  });

  it('returns the very same event when there is nothing to redact', () => {
    const event = parseAgentEvent({
      type: 'tool_call.requested',
      id: 'e2',
      tenant: 't',
      time: '2026-11-29T10:00:00Z',
      data: { call: { ...call, sqlStatement: 'SELECT 1' } },
    });
    expect(redactEvent(event)).toBe(event);
  });
});
