import type { Scenario, ScenarioSettings } from './scenario.js';
import { ScenarioScript } from './scenario-script.js';

/**
 * RFC test 1 — Permission/Auth: one principal, one restricted table, several model-generated queries.
 * Budget 0 after the first classified failure, and the denial is a fact about the principal: another
 * agent in another run acting as it is stopped at preflight before it tries.
 */
export function permissionScenario(settings: ScenarioSettings): Scenario {
  const s = new ScenarioScript(settings, 'rfc1');
  const principal = s.named('svc-reporting');
  const restricted = {
    tool: 'sql_query',
    effect: 'read',
    resourceClass: 'sql_namespace',
    resourceId: 'finance.salaries',
    principal,
    authScope: 'read:finance',
  } as const;
  const denied = {
    sqlState: '42501',
    name: 'DatabaseError',
    message: 'permission denied for table salaries',
  } as const;
  const sent = { requestSent: true, responseReceived: true };

  const sql1 = "SELECT name, salary FROM finance.salaries WHERE department = 'engineering'";
  const first = s.call('analyst-agent', s.named('run-analyst'), {
    ...restricted,
    arguments: { sql: sql1 },
    sqlStatement: sql1,
  });
  const sql2 = 'SELECT avg(salary) AS average FROM finance.salaries';
  const rephrased = s.retry(first, { arguments: { sql: sql2 }, sqlStatement: sql2 });
  const sql3 = 'SELECT department, sum(salary) FROM finance.salaries GROUP BY department';
  const other = s.call('reporter-agent', s.named('run-reporter'), {
    ...restricted,
    arguments: { sql: sql3 },
    sqlStatement: sql3,
  });

  s.requested(first, 'analyst-agent asks Postgres for the engineering salaries')
    .failed(first, denied, sent, 14, 'Postgres refuses: 42501 permission denied for table salaries')
    .requested(rephrased, 'the model rephrases the query and tries again as the same principal')
    .failed(rephrased, denied, sent, 11, 'refused again, as it must be: the query was never the problem')
    .preflight(
      other,
      'deny',
      'reporter-agent, in another run but acting as the same principal, asks before it queries',
    );

  return s.build(
    'rfc-1-permission',
    'RFC 1 · Permission/Auth',
    'a permission denial stops the principal at once (budget 0), fleet-wide, whatever the query',
    principal,
  );
}
