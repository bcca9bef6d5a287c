import type { Scenario, ScenarioSettings } from './scenario.js';
import { ScenarioScript } from './scenario-script.js';

/**
 * The demo's page: a refund POST timed out after it was sent (status unknown, a block: reconcile before
 * retry), and the read-after-write check that should have settled it could not tell either. Nobody can
 * say whether the customer was refunded, and no agent may send the refund again: the engine pages a
 * person (decide: an uncertain write whose verifier failed). docs/notifier.md, "What produces a page",
 * shows the Slack message and the PagerDuty event this produces.
 */
export function unknownRefundScenario(settings: ScenarioSettings): Scenario {
  const s = new ScenarioScript(settings, 'page');
  const principal = s.named('svc-payments');
  const run = s.named('run-refunds');
  const payments = {
    resourceClass: 'api_endpoint',
    resourceId: 'payments-api:/v1/refunds',
    principal,
    authScope: 'refunds:write',
  } as const;
  const refund = s.call('support-agent', run, {
    ...payments,
    tool: 'payments.refund',
    effect: 'write',
    arguments: {
      charge_id: 'ch_3PqK8a2eZvKYlo2C',
      order_id: 'ord_20261201_0042',
      amount_cents: 4999,
      currency: 'EUR',
      reason: 'duplicate charge reported by the customer',
    },
    httpMethod: 'POST',
  });
  const refundAgain = s.retry(refund);

  s.requested(refund, 'support-agent refunds EUR 49.99 of charge ch_3PqK8a2eZvKYlo2C (order ord_20261201_0042)')
    .unknown(
      refund,
      { errno: 'ETIMEDOUT', message: 'socket timeout after 30000 ms (request body fully sent)' },
      { requestSent: true, responseReceived: false },
      30_000,
      'the request was sent, no answer came: the refund may or may not exist',
    )
    .preflight(refundAgain, 'deny', 'the agent wants to send the refund again; it asks first')
    .verified(
      refund,
      'read_after_write',
      'inconclusive',
      {},
      'GET /v1/refunds?charge=ch_3PqK8a2eZvKYlo2C timed out twice; the ledger export is hours behind',
      'its read-after-write check cannot tell whether the refund exists',
    )
    .preflight(refundAgain, 'deny', 'asked once more whether it may send the refund again');

  return s.build(
    'page-unknown-refund',
    'Page · A refund nobody can confirm',
    'a write of unknown outcome that verification cannot settle pages a person: only they can check the ledger',
    principal,
  );
}
