import type { Scenario, ScenarioSettings } from './scenario.js';
import { ScenarioScript } from './scenario-script.js';

/**
 * RFC test 3 — Transient: a 503 with Retry-After, a small retry budget (+2) spent with backoff, the
 * server's delay honoured (a retry before it is refused at preflight), then success.
 */
export function transientScenario(settings: ScenarioSettings): Scenario {
  const s = new ScenarioScript(settings, 'rfc3');
  const principal = s.named('svc-research');
  const first = s.call('research-agent', s.named('run-research'), {
    tool: 'web_search',
    effect: 'read',
    resourceClass: 'api_endpoint',
    resourceId: 'search-api:/v1/search',
    principal,
    authScope: 'search:query',
    arguments: { q: 'postgres logical replication slot lag', top_k: 10 },
    httpMethod: 'GET',
  });
  const retry1 = s.retry(first);
  const retry2 = s.retry(retry1);
  const sent = { requestSent: true, responseReceived: true };

  s.requested(first, 'research-agent calls the search API')
    .failed(
      first,
      { httpStatus: 503, message: 'upstream overloaded, retry later', headers: { 'retry-after': '30' } },
      sent,
      210,
      'the API answers 503 with Retry-After: 30',
    )
    .preflight(retry1, 'deny', 'the agent wants to retry at once; it asks first')
    .wait(31_000)
    .requested(retry1, 'after the 30 s the server asked for, it retries the same intent')
    .failed(retry1, { httpStatus: 502, message: 'bad gateway' }, sent, 180, 'a 502 this time: still transient')
    .wait(2_000)
    .requested(retry2, 'after the backoff it retries once more: the last of its budget of +2')
    .succeeded(retry2, { empty: false, rowCount: 10 }, 320, 'ten results: the key resolves, nothing more to say');

  return s.build(
    'rfc-3-transient',
    'RFC 3 · Transient',
    '5xx gets a small retry budget with backoff, and the server’s Retry-After is honoured',
    principal,
  );
}
