import type { Scenario, ScenarioSettings } from './scenario.js';
import { ScenarioScript } from './scenario-script.js';

/**
 * RFC test 2 — Validation: malformed arguments get one repair attempt (structurally different
 * arguments), then a forced summary; repeating the rejected arguments identically is refused.
 */
export function validationScenario(settings: ScenarioSettings): Scenario {
  const s = new ScenarioScript(settings, 'rfc2');
  const principal = s.named('svc-travel');
  const search = {
    tool: 'search_flights',
    effect: 'read',
    resourceClass: 'api_endpoint',
    resourceId: 'flights-api:/v2/search',
    principal,
    authScope: 'flights:read',
    httpMethod: 'GET',
  } as const;
  const sent = { requestSent: true, responseReceived: true };

  const first = s.call('travel-agent', s.named('run-travel'), {
    ...search,
    arguments: { from: 'SFO', to: 'JFK', date: '2026-02-30', passengers: 1 },
  });
  const repaired = s.retry(first, { arguments: { from: 'SFO', to: 'JFK', date: '2026-03-02', passengers: 0 } });
  // The same arguments as the repair, keys in another order: structurally identical.
  const repeated = s.retry(repaired, { arguments: { passengers: 0, date: '2026-03-02', to: 'JFK', from: 'SFO' } });
  const unprocessable = (message: string) => ({
    httpStatus: 422,
    name: 'UnprocessableEntityError',
    message,
    headers: { 'content-type': 'application/problem+json' },
  });

  s.requested(first, 'travel-agent searches flights for 30 February')
    .failed(
      first,
      unprocessable('date: day is out of range for month (2026-02-30)'),
      sent,
      95,
      'the API answers 422: no such date',
    )
    .requested(repaired, 'the model repairs the date: structurally different arguments, the one repair attempt')
    .failed(
      repaired,
      unprocessable('passengers: must be greater than or equal to 1'),
      sent,
      88,
      'still 422: passengers must be at least 1',
    )
    .preflight(repeated, 'deny', 'the model would send the same arguments again; the agent asks first')
    .requested(repeated, 'it sends them anyway')
    .failed(
      repeated,
      unprocessable('passengers: must be greater than or equal to 1'),
      sent,
      90,
      'the identical request is rejected identically',
    );

  return s.build(
    'rfc-2-validation',
    'RFC 2 · Validation',
    'one structurally different repair is allowed, then a forced summary; identical arguments never count',
    principal,
  );
}
