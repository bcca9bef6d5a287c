import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolCall } from '@tokencircuit/contracts/testing';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';
import {
  callTool,
  connectHttpClient,
  gatewayConfig,
  resultText,
  Scratch,
  startHttpGatewayInProcess,
  startLinkedGatewayInProcess,
  stdioTickets,
  TICKET_TOOLS,
  TICKETS,
} from './support/gateway-harness.js';
import { SwitchableProxy } from './support/switchable-proxy.js';
import { upstreamCallCount } from './support/upstream-calls.js';

/**
 * Preflight answers reused inside the gateway (docs/mcp.md): an allowed read of a selection nothing is known
 * about is answered without a backend round trip while the API's change feed for the run and principal is live.
 * Against the real backend (Kafka, projector, decision service, API, Postgres): a change another agent causes at
 * the principal drops what was kept, so the next call is refused by preflight and never reaches the upstream; a
 * lost feed drops it too, and every call asks until the feed is back. The reusing gateway reaches the API through a
 * proxy the spec can take down; the other agent's gateway reaches it directly.
 */
const DOWNSTREAMS = ['linked', 'http'] as const;
type Downstream = (typeof DOWNSTREAMS)[number];

interface Counts {
  readonly served: number;
  readonly kept: number;
  readonly changed: number;
  readonly lost: number;
  readonly feedsLive: number;
}

interface AgentGateway {
  readonly client: Client;
  readonly callsFile: string;
  counts(): Counts;
  logs(): string;
  close(): Promise<void>;
}

let stack: FleetStack;
let proxy: SwitchableProxy;
const scratch = new Scratch();
beforeAll(async () => {
  stack = await FleetStack.start();
  proxy = await SwitchableProxy.start(stack.apiUrl);
});
afterAll(async () => {
  await proxy?.close();
  await stack?.close();
  scratch.remove();
});

async function startAgent(
  downstream: Downstream,
  agent: string,
  principal: string,
  apiUrl: string,
  tools: Record<string, unknown> = TICKET_TOOLS,
): Promise<AgentGateway> {
  const callsFile = scratch.callsFile(agent);
  const config = scratch.write(
    `${agent}.json`,
    gatewayConfig({ apiUrl, agent, principal, servers: { [TICKETS]: stdioTickets(callsFile, { tools }) } }),
  );
  if (downstream === 'linked') {
    const gateway = await startLinkedGatewayInProcess(config, TENANT_KEYS.acme);
    return {
      client: gateway.client,
      callsFile,
      counts: () => (gateway.health() as unknown as { preflightAnswers: Counts }).preflightAnswers,
      logs: gateway.logs,
      close: gateway.stop,
    };
  }
  const gateway = await startHttpGatewayInProcess(config);
  const client = await connectHttpClient(gateway.url, TENANT_KEYS.acme);
  return {
    client,
    callsFile,
    counts: () => (gateway.health() as { preflightAnswers: Counts }).preflightAnswers,
    logs: gateway.logs,
    close: async () => {
      await client.close();
      await gateway.stop();
    },
  };
}

describe.each(DOWNSTREAMS)('preflight answers reused inside the gateway (downstream %s)', (downstream) => {
  const principal = `svc-reuse-${downstream}`;
  const tool = `${TICKETS}__read_report`;
  let reusing: AgentGateway;
  let other: AgentGateway;
  const reached = () => upstreamCallCount(reusing.callsFile, 'read_report');
  let queries = 0;
  // A new query each time: the same arguments again and again would be a loop the backend rightly flags
  // (no_progress), and a run with a failure state gets no reusable answer.
  const read = (report: string) => callTool(reusing.client, tool, { report, query: `sum(amount) #${++queries}` });

  /**
   * Calls until an answer for `report` was kept and the next call was answered from it. A call answered inside is
   * still governed and forwarded: the upstream sees it. (Asked again from the start when a change announced in
   * between dropped what was kept: later states of the other agent's keys at this principal are announced too.)
   */
  async function untilServedInside(report: string): Promise<void> {
    await waitFor(
      async () => {
        const kept = reusing.counts().kept;
        if ((await read(report)).isError === true || reusing.counts().kept === kept) return false;
        const served = reusing.counts().served;
        const before = reached();
        const result = await read(report);
        return result.isError !== true && reusing.counts().served === served + 1 && reached() === before + 1;
      },
      { name: `a call of ${report} answered inside the gateway` },
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}; counts ${JSON.stringify(reusing.counts())}; logs:\n${reusing.logs()}`);
    });
  }

  /**
   * The other agent acts as the same principal, and its gateway names the report's resource by the `query`
   * argument: its read of the restricted salaries report with query `resource` fails with a permission error on
   * resource `resource`, which blocks the principal there fleet-wide.
   */
  async function permissionFailureOn(resource: string): Promise<void> {
    const result = await callTool(other.client, tool, { report: 'salaries', query: resource });
    expect(result.isError, other.logs()).toBe(true);
    expect(result.structuredContent).toMatchObject({ tokencircuit: 'stopped', artifact: { failureClass: 'permission' } });
  }

  /**
   * Whether the API itself, asked directly for the reusing gateway's run and this report, allows the call: once it
   * refuses, the API process has handled the change's notification, and relayed it on the gateway's feed in the
   * same turn (the gateway may still be reading it off its socket: the delay the API's own cache documents).
   */
  async function apiAllows(report: string): Promise<boolean> {
    const { rows } = await stack.database.pool.query<{ run: string }>(
      'SELECT run FROM agent_events WHERE agent = $1 LIMIT 1',
      [`reuse-bot-${downstream}`],
    );
    const call = toolCall({
      agent: `reuse-bot-${downstream}`,
      run: rows[0]!.run,
      tool,
      effect: 'read',
      resourceClass: 'api_endpoint',
      resourceId: report,
      principal,
      authScope: null,
      arguments: { report, query: 'probe' },
      sqlStatement: null,
    });
    const response = await fetch(`${stack.apiUrl}/v1/preflight`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TENANT_KEYS.acme}`, 'content-type': 'application/json' },
      body: JSON.stringify({ call }),
    });
    const answer = (await response.json()) as { allow: boolean };
    lastAnswer = JSON.stringify(answer).slice(0, 400);
    return answer.allow;
  }
  let lastAnswer = '';

  beforeAll(async () => {
    reusing = await startAgent(downstream, `reuse-bot-${downstream}`, principal, proxy.url);
    other = await startAgent('linked', `reuse-other-${downstream}`, principal, stack.apiUrl, {
      ...TICKET_TOOLS,
      read_report: { effect: 'read', resourceClass: 'api_endpoint', resourceId: 'query' },
    });
  });
  afterAll(async () => {
    await reusing?.close();
    await other?.close();
  });

  it('an allowed read of an unchanged run is answered inside the gateway once its change feed is live', async () => {
    await untilServedInside('revenue');
    expect(reusing.counts().feedsLive).toBeGreaterThanOrEqual(1);
  });

  it('after another agent’s permission failure on the same resource, the next call is refused by preflight, not served from memory', async () => {
    await untilServedInside('revenue');
    const changed = reusing.counts().changed;
    await permissionFailureOn('revenue');
    await waitFor(async () => !(await apiAllows('revenue')), { name: 'the API refusing the selection' }).catch(
      (error: unknown) => {
        throw new Error(`${String(error)}; its last answer ${lastAnswer}; other's logs:\n${other.logs()}`);
      },
    );
    await waitFor(() => reusing.counts().changed > changed, { name: 'a change announced to the gateway' });
    const before = reached();
    const served = reusing.counts().served;
    const result = await read('revenue');
    expect(result.isError, resultText(result)).toBe(true);
    expect(result.structuredContent).toMatchObject({
      tokencircuit: 'stopped',
      source: 'preflight',
      nextAllowedAction: 'stop_request_authorization',
    });
    expect(reached()).toBe(before);
    expect(reusing.counts().served).toBe(served);
  });

  it('a lost change feed drops what was kept: calls ask the API until the feed is back, then are answered inside again', async () => {
    await untilServedInside('forecast');
    const lost = reusing.counts().lost;
    await proxy.down();
    try {
      await waitFor(() => reusing.counts().lost > lost, { name: 'the feed taken for lost' });
    } finally {
      await proxy.back();
    }
    const served = reusing.counts().served;
    const result = await read('forecast');
    expect(result.isError ?? false, resultText(result)).toBe(false);
    expect(reusing.counts().served).toBe(served);
    await waitFor(() => reusing.counts().feedsLive >= 1, { name: 'the feed live again' });
    await untilServedInside('forecast');
  });

  it('a change while the feed was lost is never served from what was kept before', async () => {
    await untilServedInside('budget');
    const lost = reusing.counts().lost;
    await proxy.down();
    try {
      await waitFor(() => reusing.counts().lost > lost, { name: 'the feed taken for lost' });
      // Nobody tells the reusing gateway about this one: its feed is down.
      await permissionFailureOn('budget');
      await waitFor(async () => !(await apiAllows('budget')), { name: 'the API refusing the selection' });
    } finally {
      await proxy.back();
    }
    const before = reached();
    const result = await read('budget');
    expect(result.isError, resultText(result)).toBe(true);
    expect(result.structuredContent).toMatchObject({ source: 'preflight' });
    expect(reached()).toBe(before);
  });
});
