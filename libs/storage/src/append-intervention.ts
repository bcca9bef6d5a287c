import { INTERVENTION_CHAIN_LOCK_CLASS } from './advisory-locks.js';
import { chainHash, type ChainedIntervention, type InterventionContent } from './hash-chain.js';
import { INTERVENTION_COLUMNS, toChainedIntervention, type InterventionQueryRow } from './intervention-row.js';
import { toInterventionContent, type NewIntervention } from './new-intervention.js';
import type { SqlSession } from './sql-database.js';

export interface AppendResult {
  readonly intervention: ChainedIntervention;
  /** false when an intervention with this id already existed: republishing is idempotent. */
  readonly appended: boolean;
}

/**
 * Appends an intervention to its tenant's hash chain. Appends of one tenant are serialised by a
 * transaction-level advisory lock, so concurrent writers still produce one linear chain (the
 * UNIQUE NULLS NOT DISTINCT (tenant, prev_hash) constraint would refuse a fork anyway).
 *
 * Meant to run inside the caller's transaction (a SqlDatabase.transaction session, a PGlite
 * transaction), so the append commits or rolls back with the caller's other writes, e.g. marking
 * the outbox row published. A bare pg client that is not in a transaction gets one of its own.
 * Use READ COMMITTED: the chain head must be read after the lock is granted.
 */
export async function appendIntervention(client: SqlSession, input: NewIntervention): Promise<AppendResult> {
  const content = toInterventionContent(input);
  const status = transactionStatus(client);
  if (status === 'E') {
    throw new Error('appendIntervention: the transaction has already failed; roll it back before appending');
  }
  if (status !== 'I' && status !== null) return appendLocked(client, content);

  await client.query('BEGIN');
  try {
    const result = await appendLocked(client, content);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

/** node-postgres clients report 'I' (idle), 'T' (in a transaction) or 'E' (failed transaction); wrappers do not. */
function transactionStatus(client: SqlSession): string | null | undefined {
  const candidate = client as { getTransactionStatus?: () => string | null };
  return typeof candidate.getTransactionStatus === 'function' ? candidate.getTransactionStatus() : undefined;
}

async function appendLocked(client: SqlSession, content: InterventionContent): Promise<AppendResult> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [INTERVENTION_CHAIN_LOCK_CLASS, content.tenant]);

  const existing = await findById(client, content.id);
  if (existing) return alreadyAppended(existing, content);

  const head = await client.query<{ hash: string }>(
    'SELECT hash FROM interventions WHERE tenant = $1 ORDER BY seq DESC LIMIT 1',
    [content.tenant],
  );
  const prevHash = head.rows[0]?.hash ?? null;
  const inserted = await client.query<InterventionQueryRow>(
    `INSERT INTO interventions (id, tenant, run, agent, level, failure_class, key_id, tool_name, resource_class,
       auth_scope, principal, resource_id, next_action, artifact, policy_version, state_version, causing_event_ids,
       prev_hash, hash, issued_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20)
     ON CONFLICT (id) DO NOTHING
     RETURNING ${INTERVENTION_COLUMNS}`,
    [
      content.id,
      content.tenant,
      content.run,
      content.agent,
      content.level,
      content.failureClass,
      content.keyId,
      content.toolName,
      content.resourceClass,
      content.authScope,
      content.principal,
      content.resourceId,
      content.nextAction,
      JSON.stringify(content.artifact),
      content.policyVersion,
      content.stateVersion,
      content.causingEventIds,
      prevHash,
      chainHash(content, prevHash),
      content.issuedAt,
    ],
  );
  const row = inserted.rows[0];
  if (row) return { intervention: toChainedIntervention(row), appended: true };

  // The id was taken between our check and the insert: only another tenant's append can do that,
  // since this tenant's appends hold the lock.
  const raced = await findById(client, content.id);
  if (!raced) throw new Error(`appendIntervention: ${content.id} conflicted but cannot be read back`);
  return alreadyAppended(raced, content);
}

async function findById(client: SqlSession, id: string): Promise<ChainedIntervention | undefined> {
  const found = await client.query<InterventionQueryRow>(
    `SELECT ${INTERVENTION_COLUMNS} FROM interventions WHERE id = $1`,
    [id],
  );
  const row = found.rows[0];
  return row ? toChainedIntervention(row) : undefined;
}

function alreadyAppended(existing: ChainedIntervention, content: InterventionContent): AppendResult {
  if (existing.tenant !== content.tenant) {
    throw new Error(
      `appendIntervention: intervention id ${content.id} already belongs to another tenant; ids must be unique across tenants`,
    );
  }
  return { intervention: existing, appended: false };
}
