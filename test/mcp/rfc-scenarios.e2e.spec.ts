import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from '../sdk/support/fleet-stack.js';
import { callsOf, storedEvents, storedInterventions } from './support/fleet-events.js';
import {
  callTool,
  connectHttpClient,
  gatewayConfig,
  resultText,
  Scratch,
  spawnHttpGateway,
  spawnStdioGateway,
  startHttpGatewayInProcess,
  stdioTickets,
  TICKETS,
} from './support/gateway-harness.js';
import { SEEDED_TICKET, UPSTREAM_TEXTS } from './support/test-upstream-server.js';
import { upstreamCallCount } from './support/upstream-calls.js';

/**
 * The RFC's five scenarios through MCP alone: an agent that knows nothing of TokenCircuit calls the test
 * upstream's tools through `tokencircuit mcp` (the real CLI, over stdio and over Streamable HTTP), and the
 * real backend (Kafka, projector, decision service, API, Postgres) governs every call. What reached the
 * upstream is counted at the upstream.
 */
const TRANSPORTS = ['stdio', 'http'] as const;
type Downstream = (typeof TRANSPORTS)[number];

let stack: FleetStack;
const scratch = new Scratch();
beforeAll(async () => {
  stack = await FleetStack.start();
});
afterAll(async () => {
  await stack?.close();
  scratch.remove();
});

/** One gateway of one agent, over the given downstream; `close` ends the client and, over HTTP, the process. */
interface AgentGateway {
  readonly client: Client;
  readonly callsFile: string;
  logs(): string;
  close(): Promise<void>;
}

async function startAgent(
  downstream: Downstream,
  agent: string,
  principal: string,
  ownProcess = false,
): Promise<AgentGateway> {
  const callsFile = scratch.callsFile(agent);
  const config = scratch.write(
    `${agent}.json`,
    gatewayConfig({
      apiUrl: stack.apiUrl,
      agent,
      principal,
      authScope: 'tickets:rw',
      servers: { [TICKETS]: stdioTickets(callsFile, { timeoutMs: 1_500 }) },
    }),
  );
  if (downstream === 'stdio') {
    const gateway = await spawnStdioGateway(config, TENANT_KEYS.acme);
    return { client: gateway.client, callsFile, logs: gateway.stderr, close: gateway.close };
  }
  if (ownProcess) {
    const spawned = await spawnHttpGateway(config);
    const client = await connectHttpClient(spawned.url, TENANT_KEYS.acme);
    return {
      client,
      callsFile,
      logs: spawned.stderr,
      close: async () => {
        await client.close();
        await spawned.stop();
      },
    };
  }
  // Over HTTP the gateway runs in this process (its programmatic entry); the stdio leg runs the real CLI.
  const gateway = await startHttpGatewayInProcess(config);
  const client = await connectHttpClient(gateway.url, TENANT_KEYS.acme);
  return {
    client,
    callsFile,
    logs: gateway.logs,
    close: async () => {
      await client.close();
      await gateway.stop();
    },
  };
}

describe.each(TRANSPORTS)('the RFC scenarios through the MCP gateway (downstream %s)', (downstream) => {
  const principal = `svc-support-${downstream}`;
  const agent = `support-bot-${downstream}`;
  let gateway: AgentGateway;
  const tool = (name: string) => `${TICKETS}__${name}`;
  const reached = (name: string) => upstreamCallCount(gateway.callsFile, name);
  /** The findings of this agent's empty_result verifier.results, in the order they were stored. */
  const emptyFindings = async (): Promise<string[]> =>
    (await storedEvents(stack.database.pool, agent))
      .filter((e) => e.type === 'verifier.result')
      .map((e) => e.data as { verifier?: string; finding?: string })
      .filter((data) => data.verifier === 'empty_result')
      .map((data) => String(data.finding));

  beforeAll(async () => {
    gateway = await startAgent(downstream, agent, principal);
  });
  afterAll(async () => {
    await gateway?.close();
  });

  it('lists the upstream tools as SERVER__TOOL with their schemas and annotations', async () => {
    const { tools } = await gateway.client.listTools();
    const byName = new Map(tools.map((t) => [t.name, t]));
    for (const name of ['read_report', 'set_priority', 'fetch_status', 'search', 'create_ticket', 'get_ticket']) {
      expect(byName.has(tool(name)), name).toBe(true);
    }
    expect(byName.get(tool('read_report'))!.annotations).toMatchObject({ readOnlyHint: true });
    expect(byName.get(tool('create_ticket'))!.inputSchema.properties).toHaveProperty('id');
  });

  describe('1. permission: blocked fleet-wide after the first classified failure', () => {
    it('the first refusal comes back as a stop the model can read: what, why, and the next allowed action', async () => {
      const result = await callTool(gateway.client, tool('read_report'), {
        report: 'salaries',
        query: 'sum(amount) by department',
      });
      expect(result.isError, gateway.logs()).toBe(true);
      expect(result.structuredContent).toMatchObject({
        tokencircuit: 'stopped',
        tool: tool('read_report'),
        source: 'intervention',
        nextAllowedAction: 'stop_request_authorization',
        level: 'block',
        artifact: { failureClass: 'permission' },
      });
      expect(resultText(result)).toMatch(new RegExp(`^TokenCircuit stopped ${tool('read_report')}`));
      expect(reached('read_report')).toBe(1);
    });

    it('a different query on the same report is refused before it is sent: the upstream never sees it', async () => {
      const result = await callTool(gateway.client, tool('read_report'), {
        report: 'salaries',
        query: 'SELECT * FROM salaries WHERE dept = 7',
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({
        source: 'preflight',
        nextAllowedAction: 'stop_request_authorization',
      });
      expect(reached('read_report')).toBe(1);
    });

    it('another report of the same principal is not blocked', async () => {
      const result = await callTool(gateway.client, tool('read_report'), { report: 'revenue', query: 'sum' });
      expect(result.isError ?? false).toBe(false);
      expect(reached('read_report')).toBe(2);
    });

    it('a second gateway process (the CLI), another agent acting as the same principal, is blocked before its first try', async () => {
      const other = await startAgent(downstream, `${agent}-b`, principal, true);
      try {
        const result = await callTool(other.client, tool('read_report'), { report: 'salaries', query: 'avg(amount)' });
        expect(result.isError, other.logs()).toBe(true);
        expect(result.structuredContent).toMatchObject({
          source: 'preflight',
          nextAllowedAction: 'stop_request_authorization',
        });
        expect(upstreamCallCount(other.callsFile, 'read_report')).toBe(0);
      } finally {
        await other.close();
      }
    });
  });

  describe('2. validation: one repair, then a forced summary', () => {
    it('the bad arguments come back as the upstream said, for the model to correct', async () => {
      const result = await callTool(gateway.client, tool('set_priority'), { id: 'T-7', priority: 'urgent!!' });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain(UPSTREAM_TEXTS.validation);
      expect(reached('set_priority')).toBe(1);
    });

    it('the repair fails too: the intervention replaces the result with a forced summary', async () => {
      const result = await callTool(gateway.client, tool('set_priority'), { id: 'T-7', priority: 'asap' });
      expect(result.isError).toBe(true);
      expect(result.structuredContent, resultText(result)).toMatchObject({
        source: 'intervention',
        nextAllowedAction: 'forced_summary',
        artifact: { failureClass: 'validation' },
      });
      expect(reached('set_priority')).toBe(2);
    });

    it('a third attempt is refused before it is sent', async () => {
      const result = await callTool(gateway.client, tool('set_priority'), { id: 'T-7', priority: 'high' });
      expect(result.structuredContent).toMatchObject({ source: 'preflight', nextAllowedAction: 'forced_summary' });
      expect(reached('set_priority')).toBe(2);
    });
  });

  describe('3. transient: retries with backoff, within a small budget', () => {
    it('rate-limited twice, then answered: each retry, allowed by preflight once its backoff passed, reached the upstream', async () => {
      const args = { service: 'billing', failFirst: 2 };
      const first = await callTool(gateway.client, tool('fetch_status'), args);
      expect(first.isError).toBe(true);
      expect(resultText(first)).toContain(UPSTREAM_TEXTS.transient);
      const second = await callTool(gateway.client, tool('fetch_status'), args);
      expect(second.isError).toBe(true);
      const third = await callTool(gateway.client, tool('fetch_status'), args);
      expect(third.isError ?? false, resultText(third)).toBe(false);
      expect(JSON.parse(resultText(third))).toMatchObject({ service: 'billing', status: 'ok', attempt: 3 });
      expect(reached('fetch_status')).toBe(3);
      const advice = await storedInterventions(stack.database.pool, { agent, tool: tool('fetch_status') });
      expect(advice.map((i) => `${i.level}:${i.next_action}`)).toContain('advise:retry_with_backoff');
    });

    it('a failure that persists spends the budget: a forced summary, then nothing more is sent', async () => {
      const args = { service: 'ledger', failFirst: 100 };
      let last = await callTool(gateway.client, tool('fetch_status'), args);
      for (
        let attempt = 1;
        attempt < 6 && (last.structuredContent as { tokencircuit?: string })?.tokencircuit !== 'stopped';
        attempt++
      ) {
        last = await callTool(gateway.client, tool('fetch_status'), args);
      }
      expect(last.structuredContent, resultText(last)).toMatchObject({ nextAllowedAction: 'forced_summary' });
      const sent = reached('fetch_status');
      const again = await callTool(gateway.client, tool('fetch_status'), args);
      expect(again.structuredContent).toMatchObject({ source: 'preflight', nextAllowedAction: 'forced_summary' });
      expect(reached('fetch_status')).toBe(sent);
    });
  });

  describe('4. empty result: valid empty is not silently taken for a wrong query', () => {
    it('an empty search with no verifier comes back with its rows, a note that it is unverified, and the backend flags it', async () => {
      const result = await callTool(gateway.client, tool('search'), { query: "status = 'shipped '" });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ rows: [] });
      expect(resultText(result)).toMatch(/has not verified that the empty result is valid/);
      await waitFor(
        async () =>
          (await storedInterventions(stack.database.pool, { agent, tool: tool('search') })).some(
            (i) => i.next_action === 'verify_empty_result',
          ),
        { maxWait: 30_000, name: 'the empty search to be flagged verify_empty_result' },
      );
    });

    it('a valid empty: the gateway checks with the broader read, finds nothing either, and says the empty is valid', async () => {
      const before = reached('list_tickets');
      const result = await callTool(gateway.client, tool('find_tickets'), { query: `Coffee machine ${downstream}` });
      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ rows: [] });
      expect(resultText(result)).toMatch(/checked with list_tickets: nothing is there, so the empty result is valid/);
      expect(reached('list_tickets')).toBe(before + 1);
      await waitFor(
        async () => (await emptyFindings()).includes('confirmed'),
        { maxWait: 30_000, name: 'the empty_result verifier.result (confirmed) to be stored' },
      );
    });

    it('a wrong query: the broader read finds the ticket, so the empty is refuted and the model is told to repair it', async () => {
      const wrong = `${SEEDED_TICKET.title.toLowerCase()} `;
      const result = await callTool(gateway.client, tool('find_tickets'), { query: wrong });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toMatch(/found data it should have matched: the query is probably wrong/);
      await waitFor(async () => (await emptyFindings()).includes('refuted'), {
        maxWait: 30_000,
        name: 'the empty_result verifier.result (refuted, wrong_query) to be stored',
      });
      const repaired = await callTool(gateway.client, tool('find_tickets'), { query: SEEDED_TICKET.title });
      expect(repaired.structuredContent).toMatchObject({ rows: [SEEDED_TICKET] });
    });
  });

  describe('5. side-effect uncertainty: the unknown create is reconciled, not repeated', () => {
    it('the create times out after the upstream applied it; the gateway reads it back and says so', async () => {
      const result = await callTool(gateway.client, tool('create_ticket'), {
        id: `T-${downstream}-1`,
        title: 'Printer on fire',
      });
      expect(resultText(result), gateway.logs()).toMatch(
        /checked with .*get_ticket: it took effect\. Do not send it again/,
      );
      expect(reached('create_ticket')).toBe(1);
      expect(reached('get_ticket')).toBe(1);
      await waitFor(
        async () =>
          (await storedEvents(stack.database.pool, agent)).some(
            (e) => e.type === 'verifier.result' && JSON.stringify(e.data).includes('confirmed'),
          ),
        { maxWait: 30_000, name: 'the gateway’s verifier.result (confirmed) to be stored' },
      );
    });

    it('the same create again is refused before it is sent: no duplicate ticket', async () => {
      const result = await callTool(gateway.client, tool('create_ticket'), {
        id: `T-${downstream}-1`,
        title: 'Printer on fire',
      });
      expect(result.isError).toBe(true);
      expect(result.structuredContent, resultText(result)).toMatchObject({
        tokencircuit: 'stopped',
        source: 'preflight',
      });
      expect(reached('create_ticket')).toBe(1);
    });
  });

  it('every call the gateway forwarded was published once: one requested and one outcome per call id', async () => {
    await waitFor(
      async () => {
        // Not before any call is stored: every() alone holds on an empty map.
        const calls = callsOf(await storedEvents(stack.database.pool, agent));
        return calls.size > 0 && [...calls.values()].every((c) => c.outcomes === 1);
      },
      { maxWait: 30_000, name: 'every outcome of this agent to be stored' },
    );
    const calls = callsOf(await storedEvents(stack.database.pool, agent));
    for (const [callId, counts] of calls) expect(counts, callId).toEqual({ requested: 1, outcomes: 1 });
  });
});
