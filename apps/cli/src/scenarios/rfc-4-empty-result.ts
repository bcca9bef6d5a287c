import type { Scenario, ScenarioSettings } from './scenario.js';
import { ScenarioScript } from './scenario-script.js';

/**
 * RFC test 4 — Ambiguous/Empty: an empty SELECT is not success until the empty_result verifier says
 * so. Once it is valid (the customer really has no open tickets); once it is wrong (a typo in the
 * filter), and only a corrected query may run.
 */
export function emptyResultScenario(settings: ScenarioSettings): Scenario {
  const s = new ScenarioScript(settings, 'rfc4');
  const principal = s.named('svc-support');
  const run = s.named('run-support');
  const tickets = {
    tool: 'sql_query',
    effect: 'read',
    resourceClass: 'sql_namespace',
    resourceId: 'crm.tickets',
    principal,
    authScope: 'read:crm',
  } as const;
  const query = (sql: string) => ({ arguments: { sql }, sqlStatement: sql });

  const valid = s.call('support-agent', run, {
    ...tickets,
    ...query("SELECT id, subject FROM crm.tickets WHERE customer_id = 'c-1042' AND status = 'open'"),
  });
  const wrong = s.call('support-agent', run, {
    ...tickets,
    ...query("SELECT id, subject FROM crm.tickets WHERE customer_id = 'c-2077' AND status = 'opne'"),
  });
  const corrected = s.retry(
    wrong,
    query("SELECT id, subject FROM crm.tickets WHERE customer_id = 'c-2077' AND status = 'open'"),
  );

  s.requested(valid, "support-agent looks up customer c-1042's open tickets")
    .succeeded(valid, { empty: true, rowCount: 0 }, 9, 'no rows: valid empty, or a wrong query?')
    .preflight(s.retry(valid), 'deny', 'the agent is about to re-run the same query hoping for rows; it asks first')
    .verified(
      valid,
      'empty_result',
      'confirmed',
      {},
      'crm.customers: c-1042 exists and has no open tickets',
      'the empty-result verifier confirms: valid empty',
    )
    .requested(wrong, "then it looks up customer c-2077's open tickets, with a typo in the status")
    .succeeded(wrong, { empty: true, rowCount: 0 }, 8, 'no rows again')
    .verified(
      wrong,
      'empty_result',
      'refuted',
      { emptyCause: 'wrong_query' },
      "status 'opne' is not a ticket status (open, pending, closed)",
      'the verifier says: the query is probably wrong',
    )
    .requested(corrected, 'the model corrects the filter')
    .succeeded(corrected, { empty: false, rowCount: 4 }, 10, 'four tickets: resolved');

  return s.build(
    'rfc-4-empty-result',
    'RFC 4 · Ambiguous/Empty',
    'an empty result is neither success nor failure until a verifier says "valid empty" or "wrong query"',
    principal,
  );
}
