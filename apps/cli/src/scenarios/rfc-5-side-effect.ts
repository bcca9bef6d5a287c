import type { Scenario, ScenarioSettings } from './scenario.js';
import { ScenarioScript } from './scenario-script.js';

/**
 * RFC test 5 — Side-effect uncertainty: a POST timed out after the request was sent. Status unknown,
 * not failed: the write retry is blocked until read-after-write reconciles it — here it finds the
 * invoice was created, so a retry would have billed the customer twice.
 */
export function sideEffectScenario(settings: ScenarioSettings): Scenario {
  const s = new ScenarioScript(settings, 'rfc5');
  const principal = s.named('svc-billing');
  const run = s.named('run-billing');
  const billing = {
    resourceClass: 'api_endpoint',
    resourceId: 'billing-api:/v1/invoices',
    principal,
    authScope: 'invoices:write',
  } as const;
  const create = s.call('billing-agent', run, {
    ...billing,
    tool: 'create_invoice',
    effect: 'write',
    arguments: { customer: 'c-42', amount_cents: 120000, currency: 'EUR', memo: 'March retainer' },
    httpMethod: 'POST',
  });
  const writeAgain = s.retry(create);
  const readBack = s.call('billing-agent', run, {
    ...billing,
    tool: 'list_invoices',
    effect: 'read',
    authScope: 'invoices:read',
    arguments: { customer: 'c-42', memo: 'March retainer' },
    httpMethod: 'GET',
  });

  s.requested(create, 'billing-agent POSTs an invoice of EUR 1,200.00 for customer c-42')
    .unknown(
      create,
      { errno: 'ETIMEDOUT', message: 'socket timeout after 30000 ms (request body fully sent)' },
      { requestSent: true, responseReceived: false },
      30_000,
      'the request was sent, no answer came: the invoice may or may not exist',
    )
    .preflight(writeAgain, 'deny', 'the agent wants to POST it again; it asks first')
    .preflight(readBack, 'allow', 'it asks to read the invoices back instead')
    .requested(readBack, 'it lists c-42’s invoices')
    .succeeded(readBack, { empty: false, rowCount: 1 }, 120, 'one invoice is there')
    .verified(
      create,
      'read_after_write',
      'confirmed',
      {},
      'invoice inv-7781 for c-42, EUR 1,200.00, memo "March retainer"',
      'read-after-write verification: the write happened',
    )
    .preflight(writeAgain, 'deny', 'asked once more whether it may POST again');

  return s.build(
    'rfc-5-side-effect',
    'RFC 5 · Side-effect uncertainty',
    'unknown is not failed: no write retry before read-after-write, which here proves a retry would duplicate the invoice',
    principal,
  );
}
