import type { ToolCallOutcome } from '@tokencircuit/contracts';
import { callDigestOf, DEFAULT_CONFIG, noProgressOf } from '@tokencircuit/governance';
import { describe, expect, it } from 'vitest';
import { createGovernor } from '../governor/create-governor.js';

// Nothing listens on port 9: any attempt to reach the API would fail with ApiRequestError / PublishError,
// so a TypeError here proves the call was refused before anything was sent and before the tool ran.
const nowhere = { http: { url: 'http://127.0.0.1:9', apiKey: 'k' } };

describe('a call that cannot be described to TokenCircuit is refused before anything happens', () => {
  it('names the tool and the field of a derived value the contract refuses', async () => {
    const governor = await createGovernor({
      tenant: 'acme',
      agent: 'a',
      transport: nowhere,
      waitForIntervention: false,
    });
    let ran = false;
    const lookup = governor.wrapTool(
      'orders.lookup',
      { effect: 'read', preflight: 'never', resourceId: (id: string) => `orders/${id}` },
      async (id: string) => {
        ran = true;
        return id;
      },
    );
    await expect(lookup('x'.repeat(2_000))).rejects.toThrow(
      /^orders\.lookup: the call cannot be described to TokenCircuit: resourceId: /,
    );
    expect(ran).toBe(false);
    await governor.close();
  });

  it('verify() refuses a call it does not know without the tool name, and bad verifier kinds', async () => {
    const governor = await createGovernor({
      tenant: 'acme',
      agent: 'a',
      transport: nowhere,
      waitForIntervention: false,
    });
    await expect(governor.verify('call-from-elsewhere', 'read_after_write', { finding: 'confirmed' })).rejects.toThrow(
      /was not made by this governor/,
    );
    await expect(governor.verify('c', 'eyeballed' as never, { finding: 'confirmed', tool: 't' })).rejects.toThrow(
      /verifier: /,
    );
    await expect(governor.verify('c', 'read_after_write', { finding: 'yes' as never, tool: 't' })).rejects.toThrow(
      /result\.finding: /,
    );
    // The v1 form is still read as v1, and its mistakes named in its own fields.
    await expect(governor.verify('c', 'read_after_write', { passed: 'yes' as never, tool: 't' })).rejects.toThrow(
      /result\.passed: /,
    );
    await governor.close();
  });
});

describe("a tool's preflightUnavailable overrides the governor's (fail open for one tool, closed for another)", () => {
  it('with the API unreachable, the tool that allows it runs and the other is refused before it runs', async () => {
    const lost: string[] = [];
    const governor = await createGovernor({
      tenant: 'acme',
      agent: 'a',
      transport: nowhere,
      waitForIntervention: false,
      onPublishError: (error) => lost.push(error.event.type),
    });
    const ran: string[] = [];
    const lookup = governor.wrapTool('orders.lookup', { effect: 'read', preflightUnavailable: 'allow' }, async () => {
      ran.push('lookup');
      return 'found';
    });
    const refund = governor.wrapTool('orders.refund', { effect: 'write' }, async () => {
      ran.push('refund');
      return 'refunded';
    });
    await expect(lookup()).resolves.toBe('found');
    await expect(refund()).rejects.toMatchObject({ name: 'ApiRequestError', status: null });
    expect(ran).toEqual(['lookup']);
    // Nothing is lost silently: both events of the call that ran went to onPublishError.
    expect(lost).toEqual(['tool_call.requested', 'tool_call.outcome']);
    await governor.close();
  });
});

describe("a success's outcome carries the arguments digest the fold would compute (argumentsDigest)", () => {
  it('equal for calls that differ only in a volatile field, different for another query', async () => {
    const outcomes: ToolCallOutcome[] = [];
    const governor = await createGovernor({
      tenant: 'acme',
      agent: 'a',
      transport: nowhere,
      waitForIntervention: false,
      onPublishError: (error) => {
        if (error.event.type === 'tool_call.outcome') outcomes.push(error.event);
      },
    });
    const search = governor.wrapTool(
      'search',
      { effect: 'read', preflight: 'never' },
      async (query: { q: string; requestId: string }) => `results for ${query.q}`,
    );
    await search({ q: 'q3 revenue', requestId: 'r-1' });
    await search({ q: 'q3 revenue', requestId: 'r-2' });
    await search({ q: 'q4 revenue', requestId: 'r-3' });
    await governor.close();
    expect(outcomes).toHaveLength(3);
    const [first, second, third] = outcomes.map((o) => o.data);
    expect(first!.argumentsDigest!.without).toEqual(['requestId', 'request_id', 'timestamp', 'nonce']);
    expect(second!.argumentsDigest!.digest).toBe(first!.argumentsDigest!.digest);
    expect(third!.argumentsDigest!.digest).not.toBe(first!.argumentsDigest!.digest);
    // What the fold computes from the event's own arguments under the default policy.
    const policy = noProgressOf(DEFAULT_CONFIG);
    expect(first!.argumentsDigest!.digest).toBe(callDigestOf(first!.call, policy));
  });
});
