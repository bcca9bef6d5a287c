import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';
import { callsOf, storedEvents } from './support/fleet-events.js';
import {
  callTool,
  gatewayConfig,
  resultText,
  Scratch,
  startLinkedGatewayInProcess,
  stdioTickets,
  TICKETS,
  type LinkedGateway,
} from './support/gateway-harness.js';
import { SwitchableProxy } from './support/switchable-proxy.js';
import { readUpstreamCalls, upstreamCallCount } from './support/upstream-calls.js';

/**
 * What goes wrong around the gateway: an upstream that crashes mid-call, one that stalls, replies that are
 * not MCP, results far larger than a model should read, and a backend that is down (fail closed and fail
 * open). Each time the model gets a clear result, the gateway keeps serving, and every event it published
 * is stored exactly once.
 */
let stack: FleetStack;
const scratch = new Scratch();
beforeAll(async () => {
  stack = await FleetStack.start();
});
afterAll(async () => {
  await stack?.close();
  scratch.remove();
});

const tool = (name: string) => `${TICKETS}__${name}`;
const stopped = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { tokencircuit?: string } | undefined)?.tokencircuit;

/**
 * Every governed call of `agent` is stored once: one requested, one outcome, none doubled; at least
 * `forwarded` of them (the calls the upstream counted).
 */
async function expectPublishedOnce(agent: string, forwarded: number): Promise<void> {
  await waitFor(
    async () => {
      const calls = callsOf(await storedEvents(stack.database.pool, agent));
      return calls.size >= forwarded && [...calls.values()].every((c) => c.outcomes >= 1);
    },
    { maxWait: 40_000, name: `the ${forwarded} forwarded calls of ${agent} to be stored with their outcomes` },
  );
  const calls = callsOf(await storedEvents(stack.database.pool, agent));
  expect(calls.size).toBeGreaterThanOrEqual(forwarded);
  for (const [callId, counts] of calls) expect(counts, callId).toEqual({ requested: 1, outcomes: 1 });
}

describe('a misbehaving upstream', () => {
  const agent = 'robust-upstream';
  let gateway: LinkedGateway;
  let callsFile: string;
  const reached = (name: string) => upstreamCallCount(callsFile, name);

  beforeAll(async () => {
    callsFile = scratch.callsFile(agent);
    const config = scratch.write(
      `${agent}.json`,
      gatewayConfig({
        apiUrl: stack.apiUrl,
        agent,
        principal: 'svc-robust',
        servers: { [TICKETS]: stdioTickets(callsFile, { timeoutMs: 4_000 }) },
      }),
    );
    gateway = await startLinkedGatewayInProcess(config, TENANT_KEYS.acme);
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  const healthy = async (query: string) => {
    const result = await callTool(gateway.client, tool('read_report'), { report: 'revenue', query });
    expect(result.isError ?? false, `${resultText(result)}\n${gateway.logs()}`).toBe(false);
  };

  it('crashes mid-call: a tool result that says so (not a JSON-RPC error); restarted, the next call works', async () => {
    const result = await callTool(gateway.client, tool('crash'), {}).catch((error: unknown) => error);
    // Issue 29: "upstream crash … a clear result for the model". A JSON-RPC error is for protocol faults of
    // the agent's own request; many clients turn one into an exception instead of something the model reads.
    expect(result, String(result)).not.toBeInstanceOf(Error);
    expect((result as { isError?: boolean }).isError).toBe(true);
    expect(resultText(result as { content: [] })).toMatch(/tickets__crash/);
    expect(reached('crash')).toBe(1);
  });

  it('the crashed upstream is restarted with backoff and serves the next call', async () => {
    await waitFor(
      () => {
        const [upstream] = gateway.health().upstreams;
        return upstream!.state === 'up' && upstream!.restarts >= 1;
      },
      { maxWait: 30_000, name: 'the gateway to report the upstream up again after a restart' },
    );
    await healthy('after crash');
    expect(new Set(readUpstreamCalls(callsFile).map((c) => c.pid)).size).toBe(2);
  });

  it('a tool of undeclared effect that stalls past the timeout: it may have written, so it is stopped until reconciled', async () => {
    const result = await callTool(gateway.client, tool('slow'), { ms: 60_000 });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({
      tokencircuit: 'stopped',
      nextAllowedAction: 'reconcile_before_retry',
      artifact: { failureClass: 'ambiguous_effect' },
    });
    expect(resultText(result)).toMatch(/may already have taken effect/);
    await healthy('after slow');
  });

  it('a read that stalls past the timeout: a tool result saying it timed out (not a JSON-RPC error)', async () => {
    const result = await callTool(gateway.client, tool('slow_read'), { ms: 60_000 }).catch((error: unknown) => error);
    expect(result, String(result)).not.toBeInstanceOf(Error);
    expect((result as { isError?: boolean }).isError).toBe(true);
    expect(resultText(result as { content: [] })).toMatch(/tickets__slow_read/);
    await healthy('after slow read');
  });

  it('answers with a reply that is not a CallToolResult: a clear tool result for the model, not a schema dump', async () => {
    const result = await callTool(gateway.client, tool('malformed'), {}).catch((error: unknown) => error);
    expect(result, String(result)).not.toBeInstanceOf(Error);
    expect((result as { isError?: boolean }).isError).toBe(true);
    expect(resultText(result as { content: [] })).not.toContain('invalid_type');
    await healthy('after malformed');
  });

  it('answers with a JSON-RPC error: passed on as the upstream’s JSON-RPC error (a protocol fault, not a tool result)', async () => {
    const error = await callTool(gateway.client, tool('rpc_error'), {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(String(error)).toMatch(/-32603.*Internal error: upstream store unavailable/);
    await healthy('after rpc error');
  });

  it('answers with 512 KB: passed on whole (under maxResultBytes)', async () => {
    const result = await callTool(gateway.client, tool('big'), { bytes: 512 * 1024 });
    expect(result.isError).toBeFalsy();
    expect(resultText(result).length).toBe(512 * 1024);
  });

  it('answers with a 2 MB text: the model is told it was too large and to ask for less, the event carries no copy of it', async () => {
    const result = await callTool(gateway.client, tool('big'), { bytes: 2 * 1024 * 1024 });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/more than the 1,048,576 this gateway passes on.*narrow the query/);
    await healthy('after big');
    const events = await storedEvents(stack.database.pool, agent);
    for (const event of events) expect(JSON.stringify(event.data).length).toBeLessThan(64 * 1024);
  });

  it('every call that left the gateway was published once', async () => {
    // Calls made while the upstream restarted never reached it but were governed: at least as many as arrived.
    await expectPublishedOnce(agent, readUpstreamCalls(callsFile).length);
  });
});

describe('the backend down', () => {
  let proxy: SwitchableProxy;
  beforeAll(async () => {
    proxy = await SwitchableProxy.start(stack.apiUrl);
  });
  afterAll(async () => {
    await proxy?.close();
  });

  async function gatewayBehindProxy(agent: string, failMode: 'closed' | 'open') {
    const callsFile = scratch.callsFile(agent);
    const config = scratch.write(
      `${agent}.json`,
      gatewayConfig({
        apiUrl: proxy.url,
        agent,
        principal: `svc-${agent}`,
        servers: { [TICKETS]: stdioTickets(callsFile) },
        extra: { failMode },
      }),
    );
    return { gateway: await startLinkedGatewayInProcess(config, TENANT_KEYS.acme), callsFile };
  }

  it('fail closed: the call is not sent and the model is told governance is unavailable', async () => {
    await proxy.back();
    const { gateway, callsFile } = await gatewayBehindProxy('backend-closed', 'closed');
    try {
      await proxy.down();
      const result = await callTool(gateway.client, tool('set_priority'), { id: 'T-1', priority: 'high' });
      expect(result.isError).toBe(true);
      expect(stopped(result), resultText(result)).toBe('governance_unavailable');
      expect(resultText(result)).toMatch(/governance is unavailable/);
      expect(upstreamCallCount(callsFile, 'set_priority')).toBe(0);

      // Back up: the same gateway governs again, nothing to restart.
      await proxy.back();
      const again = await callTool(gateway.client, tool('set_priority'), { id: 'T-1', priority: 'high' });
      expect(again.isError ?? false, resultText(again)).toBe(false);
      expect(upstreamCallCount(callsFile, 'set_priority')).toBe(1);
      await expectPublishedOnce('backend-closed', 1);
    } finally {
      await proxy.back();
      await gateway.stop();
    }
  });

  it('fail open: the call goes through ungoverned; its events are held and published once the backend is back', async () => {
    await proxy.back();
    const { gateway, callsFile } = await gatewayBehindProxy('backend-open', 'open');
    try {
      await proxy.down();
      for (const query of ['q1', 'q2', 'q3']) {
        const result = await callTool(gateway.client, tool('read_report'), { report: 'revenue', query });
        expect(result.isError ?? false, `${resultText(result)}\n${gateway.logs()}`).toBe(false);
      }
      expect(upstreamCallCount(callsFile, 'read_report')).toBe(3);
      expect(callsOf(await storedEvents(stack.database.pool, 'backend-open')).size).toBe(0);

      await proxy.back();
      await expectPublishedOnce('backend-open', 3);
    } finally {
      await proxy.back();
      await gateway.stop();
    }
  });
});
