import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContractError, parseAgentEvent, type AgentEvent, type RawErrorInput } from '@tokencircuit/contracts';
import { requested, SpecAgent, Timeline } from '@tokencircuit/contracts/testing';
import { redactEvent } from './redact-event.js';

const call = {
  agent: 'a',
  run: 'r',
  callId: 'c',
  attempt: 1,
  intentId: 'i',
  tool: 'sql_exec',
  effect: 'write' as const,
  sqlStatement: "ALTER USER app WITH PASSWORD 'x' -- postgres://admin:hunter2@db/prod",
  arguments: { token: 'kept-as-is', to: 'alice@example.com' },
};
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
type Outcome = Extract<AgentEvent, { type: 'tool_call.outcome' }>;

const agent = new SpecAgent(new Timeline('2026-11-29T09:59:59Z'), 't', 'a', 'r');
/** A failed sql_exec (`call` above, changed by `callOver`) with the error the case chooses. */
const outcome = (callOver: Parameters<SpecAgent['call']>[1], error: RawErrorInput): Outcome => {
  const { agent: _agent, run: _run, attempt: _attempt, tool, ...fields } = call;
  return agent.failed(agent.call(tool, { ...fields, ...callOver }), error) as Outcome;
};

describe('redactEvent', () => {
  it('removes secrets from the error message, header values, SQL and arguments under secret names', () => {
    const event = outcome(
      {},
      {
        httpStatus: 401,
        message: `invalid token Bearer ${JWT}`,
        headers: { 'www-authenticate': 'Bearer realm="api"', 'x-debug': 'postgres://admin:hunter2@db/prod' },
      },
    );
    const clean = redactEvent(event) as Outcome;
    const text = JSON.stringify(clean);
    expect(text).not.toContain('hunter2');
    expect(text).not.toContain('eyJzdWIiOiIxMjM0NTY3ODkwIn0');
    expect(clean.data.call.arguments).toEqual({ token: '[REDACTED:secret]', to: 'alice@example.com' });
    expect(clean.data.error?.httpStatus).toBe(401);
    expect(redactEvent(clean)).toBe(clean); // idempotent, and no copy when nothing changes
  });

  it('covers every string of the event: resource id, principal, error name, header names, idempotency key', () => {
    const event = outcome(
      {
        resourceId: 'https://deploy:ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789@github.com/acme/repo.git',
        principal: 'svc AKIAIOSFODNN7EXAMPLE',
        idempotencyKey: `idem-${JWT}`,
        authScope: 'scope sk_live_51HxAbCdEfGhIjKlMnOpQrSt',
        arguments: {
          nested: [{ url: 'redis://:hunter2@cache:6379' }],
          headers: { Authorization: 'Basic Zm9vOmJhcg==' },
        },
      },
      {
        name: 'Leak xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx',
        message: 'boom',
        headers: { 'x-key-sk-ant-api03-AbCdEf0123456789_AbCdEf0123456789-xyz': '1', authorization: 'abc' },
      },
    );
    const text = JSON.stringify(redactEvent(event));
    for (const secret of [
      'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789',
      'AKIAIOSFODNN7EXAMPLE',
      'eyJzdWIiOiIxMjM0NTY3ODkwIn0',
      'sk_live_51HxAbCdEfGhIjKlMnOpQrSt',
      'hunter2',
      'Zm9vOmJhcg==',
      'AbCdEfGhIjKlMnOpQrStUvWx',
      'AbCdEf0123456789_AbCdEf0123456789',
      '"abc"',
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).toContain('github.com/acme/repo.git');
  });

  it('keeps e-mail addresses in identifiers (distinct principals stay distinct keys) but not in free text', () => {
    const clean = redactEvent(
      outcome({ principal: 'alice@example.com' }, { message: 'mail bob@example.com failed' }),
    ) as Outcome;
    expect(clean.data.call.principal).toBe('alice@example.com');
    expect(clean.data.error?.message).toBe('mail [REDACTED:email] failed');
  });

  it('refuses an event whose id or tenant holds a credential instead of rewriting its identity', () => {
    const time = '2026-11-29T10:00:00Z';
    const withId = parseAgentEvent(requested('t', call, { id: 'ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789', time }));
    expect(() => redactEvent(withId)).toThrow(ContractError);
    const withTenant = parseAgentEvent(requested('sk_live_51HxAbCdEfGhIjKlMnOpQrSt', call, { id: 'e', time }));
    expect(() => redactEvent(withTenant)).toThrow(/tenant: looks like it holds a credential/);
  });

  it('returns the very same event when there is nothing to redact', () => {
    const event = parseAgentEvent(
      requested(
        't',
        { ...call, sqlStatement: 'SELECT 1', arguments: { q: 'x' } },
        { id: 'e2', time: '2026-11-29T10:00:00Z' },
      ),
    );
    expect(redactEvent(event)).toBe(event);
  });

  it('a GitHub token planted in any string field of a call never survives', () => {
    const fields = [
      'agent',
      'run',
      'callId',
      'intentId',
      'tool',
      'resourceClass',
      'resourceId',
      'principal',
      'authScope',
      'idempotencyKey',
    ] as const;
    const token = fc.stringMatching(/^[A-Za-z0-9]{36}$/).map((s) => `ghp_${s}`);
    fc.assert(
      fc.property(fc.constantFrom(...fields), token, fc.string({ maxLength: 20 }), (field, secret, around) => {
        const event = parseAgentEvent(
          requested(
            't',
            { ...call, [field]: `${around.replace(/[A-Za-z0-9_]$/, '')} ${secret} x` },
            { id: 'e3', time: '2026-11-29T10:00:00Z' },
          ),
        );
        expect(JSON.stringify(redactEvent(event))).not.toContain(secret.slice(4));
      }),
      { numRuns: 300 },
    );
  });
});
