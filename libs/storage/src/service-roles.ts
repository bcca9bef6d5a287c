import pg from 'pg';
import { explainConnectionError } from './connection-errors.js';

/**
 * The login role of each service (migration 0016), and the variable `npm run migrate` reads its password
 * from (the notifier's: 0027). None is superuser or BYPASSRLS: the writers reach every tenant through the
 * writer policies, the API and auditors see one tenant at a time under row-level security.
 */
export const SERVICE_ROLES = [
  {
    role: 'tokencircuit_projector',
    passwordVariable: 'TOKENCIRCUIT_PROJECTOR_DB_PASSWORD',
    member: 'tokencircuit_writer',
  },
  {
    role: 'tokencircuit_decision',
    passwordVariable: 'TOKENCIRCUIT_DECISION_DB_PASSWORD',
    member: 'tokencircuit_writer',
  },
  { role: 'tokencircuit_api', passwordVariable: 'TOKENCIRCUIT_API_DB_PASSWORD', member: 'tokencircuit_audit' },
  { role: 'tokencircuit_auditor', passwordVariable: 'TOKENCIRCUIT_AUDITOR_DB_PASSWORD', member: 'tokencircuit_audit' },
  // The notifier holds grants of its own on its two tables (0027) and reads episode_events (0031): no group.
  { role: 'tokencircuit_notifier', passwordVariable: 'TOKENCIRCUIT_NOTIFIER_DB_PASSWORD', member: null },
] as const;

/**
 * Sets the password of every service role whose variable is set (an unset one leaves the role as it is,
 * e.g. for trust or certificate authentication). Returns the roles it set. ALTER ROLE takes no bind
 * parameters, so the password goes in as an escaped literal; it is never logged.
 */
export async function setServiceRolePasswords(
  databaseUrl: string,
  env: Readonly<Record<string, string | undefined>>,
): Promise<string[]> {
  const wanted = SERVICE_ROLES.filter(({ passwordVariable }) => (env[passwordVariable] ?? '') !== '');
  if (wanted.length === 0) return [];
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
  } catch (error) {
    throw explainConnectionError(error, databaseUrl);
  }
  try {
    for (const { role, passwordVariable } of wanted) {
      const statement = `ALTER ROLE ${client.escapeIdentifier(role)} PASSWORD ${client.escapeLiteral(env[passwordVariable]!)}`;
      await alterRetryingRaces(client, statement);
    }
    return wanted.map(({ role }) => role);
  } finally {
    await client.end();
  }
}

// Roles are cluster-wide: two migrations of two databases altering one role at the same moment make the
// loser fail with "tuple concurrently updated"; the winner's row is there a moment later, so try again.
async function alterRetryingRaces(client: pg.Client, statement: string): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await client.query(statement);
      return;
    } catch (error) {
      if (attempt >= 5 || !/tuple concurrently updated/.test(String((error as Error).message))) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
    }
  }
}
