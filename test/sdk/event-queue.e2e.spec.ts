import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { createGovernor, EventQueue, EventQueueFullError, type Governor } from '@tokencircuit/sdk';
import { parseAgentEvent } from '@tokencircuit/contracts';
import { toolCall, requested } from '@tokencircuit/contracts/testing';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from './support/fleet-stack.js';

/**
 * The SDK's ordered event queue over the real API (the MCP gateway's transport): events leave in order and
 * in batches, a call that changes nothing returns before its events are acknowledged, one API key whose
 * events the backend refuses holds up no other key's, and nothing is lost or counted twice.
 */
describe('the SDK event queue over HTTP', () => {
  let stack: FleetStack;
  const governors: Governor[] = [];

  beforeAll(async () => {
    stack = await FleetStack.start();
  });
  afterAll(async () => {
    for (const governor of governors) await governor.close();
    await stack?.close();
  });

  const governorOn = async (queue: EventQueue, run: string, url = stack.apiUrl) => {
    const governor = await createGovernor({
      tenant: 'acme',
      agent: 'queue-bot',
      run,
      transport: { http: { url, apiKey: TENANT_KEYS.acme }, queue },
      waitForIntervention: false,
      preflightUnavailable: 'allow',
    });
    governors.push(governor);
    return governor;
  };

  it('a read returns at once; a later failure is acknowledged only after every earlier event; each lands once', async () => {
    const queue = new EventQueue(1_000);
    const governor = await governorOn(queue, 'run-queue-order');
    const search = governor.wrapTool(
      'kb.search',
      { effect: 'read', resourceClass: 'index', resourceId: 'kb' },
      async (q: string) => ({ hits: [q] }),
    );
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => search(`q${i}`)));
    expect(results).toHaveLength(20);

    const write = governor.wrapTool(
      'crm.update',
      { effect: 'write', resourceClass: 'record', resourceId: 'c-1' },
      async () => {
        throw Object.assign(new Error('Request failed with status code 422'), { status: 422 });
      },
    );
    await expect(write()).rejects.toThrow('422');
    // The failure's outcome was published (awaited) after 42 events: all of them are acknowledged by now.
    expect(queue.health()).toMatchObject({ pending: 0, published: 42, refused: 0 });

    await waitFor(
      async () => {
        const { rows } = await stack.database.pool.query<{ n: string }>(
          "SELECT count(*) AS n FROM agent_events WHERE run = 'run-queue-order'",
        );
        return Number(rows[0]!.n) === 42;
      },
      { maxWait: 30_000, interval: 100, name: 'the 42 events of the run in agent_events' },
    );
    const { rows } = await stack.database.pool.query<{ n: string; d: string }>(
      "SELECT count(*) AS n, count(DISTINCT id) AS d FROM agent_events WHERE run = 'run-queue-order'",
    );
    expect(rows[0]).toEqual({ n: '42', d: '42' });
  });

  it('with the backend unreachable, a read still returns; its events are held, the lane is bounded', async () => {
    const closed = createServer();
    await new Promise<void>((ok) => closed.listen(0, '127.0.0.1', ok));
    const port = (closed.address() as { port: number }).port;
    await new Promise((ok) => closed.close(ok));
    const queue = new EventQueue(3);
    const governor = await governorOn(queue, 'run-queue-down', `http://127.0.0.1:${port}`);
    const lookup = governor.wrapTool('kb.lookup', { effect: 'read' }, async (id: string) => ({ id }));
    await expect(lookup('a')).resolves.toEqual({ id: 'a' });
    expect(queue.health().pending).toBe(2);
    // The third event fits, the fourth does not: the call that would produce it is told, not silently dropped.
    await expect(lookup('b')).rejects.toMatchObject({ name: 'PublishError', cause: expect.any(EventQueueFullError) });
    expect(queue.health()).toMatchObject({ pending: 3, refused: 1 });

    // Another key's lane on the same queue is not held up by this one.
    const event = parseAgentEvent(
      requested('acme', toolCall({ agent: 'queue-bot', run: 'run-queue-other', tool: 'kb.other' })),
    );
    await queue.publish(event, { url: stack.apiUrl, apiKey: TENANT_KEYS.acme });
    expect(queue.health()).toMatchObject({ pending: 3, published: 1 });
    queue.close();
  });
});
