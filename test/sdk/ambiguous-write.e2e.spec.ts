import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, fetch as undiciFetch } from 'undici';
import { createGovernor, TokenCircuitError, type Governor } from '@tokencircuit/sdk';
import { waitFor } from '@tokencircuit/testing';
import { FleetStack, TENANT_KEYS } from './support/fleet-stack.js';
import { json, neverAnswer, UpstreamServer } from './support/upstream-server.js';

/**
 * RFC test case 5 through the SDK and the real backend: a POST that timed out after it was sent may
 * have created the invoice. Its status is unknown, not failed, and re-sending it before a
 * read-after-write verifier has reconciled it is the duplicate side effect the RFC exists to prevent.
 */
describe('a wrapped POST that times out after dispatch is not retried until a verifier reconciles it', () => {
  let stack: FleetStack;
  const opened: { close(): Promise<void> }[] = [];
  // undici gives up waiting for response headers after 300 ms: the request itself was written.
  const dispatcher = new Agent({ headersTimeout: 300 });

  beforeAll(async () => {
    stack = await FleetStack.start();
  });
  afterAll(async () => {
    for (const part of opened.reverse()) await part.close();
    await dispatcher.close();
    await stack?.close();
  });

  const invoice = { customer: 'c-42', amount: 1200 };

  /**
   * A run of its own (the ambiguous-effect budget is per run) whose agent POSTs an invoice to a server that
   * never answers: the governor, the server, the wrapped tool and the error the timed-out call ended in.
   */
  async function timedOutInvoice(run: string) {
    const invoicing = await UpstreamServer.start(neverAnswer);
    opened.push(invoicing);
    const governor: Governor = await createGovernor({
      tenant: 'acme',
      agent: 'billing-bot',
      run,
      principal: 'svc-billing',
      authScope: 'invoices:write',
      transport: stack.kafkaTransport(),
      waitForIntervention: { budgetMs: 20_000 },
    });
    opened.push(governor);
    const createInvoice = governor.wrapTool(
      'invoice.create',
      { effect: 'write', resourceClass: 'api_endpoint', resourceId: '/invoices', httpMethod: 'POST' },
      async (input: { customer: string; amount: number }) => {
        const response = await undiciFetch(`${invoicing.url}/invoices`, {
          method: 'POST',
          body: JSON.stringify(input),
          headers: { 'content-type': 'application/json' },
          dispatcher,
        });
        if (!response.ok) throw response;
        return (await response.json()) as { id: string };
      },
    );
    const error = await createInvoice(invoice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCircuitError);
    return { governor, invoicing, createInvoice, stop: error as TokenCircuitError };
  }

  it('the timeout is reported as status unknown; the backend answers "reconcile before retry"', async () => {
    const { invoicing, stop } = await timedOutInvoice('run-invoices-1');
    expect(invoicing.received).toHaveLength(1);

    expect(stop.source).toBe('intervention');
    expect(stop.nextAction).toBe('reconcile_before_retry');
    expect(stop.call).toMatchObject({ status: 'unknown', attempt: 1 });
    expect((stop.cause as Error & { cause?: { code?: string } }).cause?.code).toBe('UND_ERR_HEADERS_TIMEOUT');
    expect(stop.artifact).toMatchObject({
      failure_class: 'ambiguous_effect',
      scope: 'run',
      verifier_required: 'read_after_write',
      verifier_status: 'pending',
      equivalence_key: { tool_name: 'invoice.create', side_effect_boundary: true },
    });
    expect(stop.artifact.side_effect_evidence).toEqual(
      expect.arrayContaining(['dispatch:request_sent', 'outcome:unknown']),
    );
  });

  it('a retry of the same invoice before reconciliation is denied at preflight and never sent', async () => {
    const first = await timedOutInvoice('run-invoices-2');
    expect(first.stop.source).toBe('intervention');
    const error = await first.createInvoice(invoice).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TokenCircuitError);
    const stop = error as TokenCircuitError;
    expect(stop.source).toBe('preflight');
    expect(stop.nextAction).toBe('reconcile_before_retry');
    expect(stop.reason).toMatch(/may have taken effect: reconcile it with a read-after-write before writing again/);
    // Same goal, same intent: the retry was recognised as attempt 2 of the first call's intent.
    expect(stop.call).toMatchObject({ status: 'denied', attempt: 2 });
    expect(first.governor.callOf(stop)).toBe(stop.call);
    expect(first.invoicing.received).toHaveLength(1);

    // Issue 27 point 5: the refusal pages no one, so error.level is what the audit trail holds for the key
    // (a block), not the page the re-sent write would have earned had it gone out (kept in error.decision).
    const audit = (await (
      await fetch(`${stack.apiUrl}/v1/audit/interventions?${new URLSearchParams({ run: 'run-invoices-2' })}`, {
        headers: { authorization: `Bearer ${TENANT_KEYS.acme}` },
      })
    ).json()) as { items: { keyId: string; level: string }[] };
    const recorded = audit.items.filter((i) => i.keyId === first.stop.artifact.key_id).map((i) => i.level);
    expect(recorded).toEqual(['block']);
    expect(stop.level).toBe('block');
    expect(['block', 'page']).toContain(stop.decision.level);
    expect(stop.message).toMatch(/^TokenCircuit stopped invoice\.create: /);
  });

  it('after a read-after-write verifier finds no invoice, the retry is allowed and succeeds once', async () => {
    const { governor, invoicing, createInvoice, stop } = await timedOutInvoice('run-invoices-3');
    expect(stop.nextAction).toBe('reconcile_before_retry');
    const timedOutCallId = stop.call.callId;
    const keyId = stop.artifact.key_id;
    // The agent reads back (GET /invoices?customer=c-42 in real life) and finds nothing: not applied.
    const verification = await governor.verify(timedOutCallId, 'read_after_write', {
      finding: 'refuted',
      detail: 'no invoice for c-42',
    });
    expect(verification.data).toMatchObject({ callId: timedOutCallId, tool: 'invoice.create', run: 'run-invoices-3' });
    await waitFor(async () => (await stack.stateStatus(keyId)) === 'open', {
      maxWait: 20_000,
      name: 'the verifier to reopen the key',
    });

    invoicing.reply = json(201, { id: 'inv-1' });
    await expect(createInvoice(invoice)).resolves.toEqual({ id: 'inv-1' });
    expect(invoicing.received).toHaveLength(2);
    expect(governor.lastCall('invoice.create')).toMatchObject({
      status: 'succeeded',
      attempt: 2,
      callId: expect.not.stringMatching(timedOutCallId),
    });
  });
});
