import { INTERVENTION_CHAIN_LOCK_CLASS } from './advisory-locks.js';
import { chainHash, type ChainedIntervention, type InterventionContent } from './hash-chain.js';
import { INTERVENTION_COLUMNS, toChainedIntervention, type InterventionQueryRow } from './intervention-row.js';
import { toHashableIntervention, type NewIntervention } from './new-intervention.js';
import type { SqlSession } from './sql-database.js';

export interface AppendResult {
  readonly intervention: ChainedIntervention;
  /** false when an intervention with this id already existed: republishing is idempotent. */
  readonly appended: boolean;
}

/**
 * Appends interventions to their tenants' hash chains, in four statements whatever the batch's size:
 * the tenants' chain locks, the ids already stored, the chain heads, one INSERT. The rows, their order
 * and their hashes are exactly those of appending the inputs one by one in the given order (an id
 * already stored, or repeated in the batch, is returned with appended: false: republishing is
 * idempotent), so the decision service records a whole relay round without round trips per intervention.
 *
 * Appends of one tenant are serialised by a transaction-level advisory lock, so concurrent writers still
 * produce one linear chain (the UNIQUE NULLS NOT DISTINCT (tenant, prev_hash) constraint would refuse a
 * fork anyway). Locks are taken in one global order (by lock key), so two writers whose batches span the
 * same tenants queue instead of deadlocking. Run it inside the caller's transaction (so the append commits
 * or rolls back with the caller's other writes), READ COMMITTED, so the heads are read after the locks are
 * granted; a bare pg client that is not in a transaction gets one of its own.
 */
export async function appendInterventions(
  client: SqlSession,
  inputs: readonly NewIntervention[],
): Promise<AppendResult[]> {
  const contents = inputs.map(toHashableIntervention);
  if (contents.length === 0) return [];
  const status = (client as { getTransactionStatus?: () => string | null }).getTransactionStatus?.();
  if (status === 'E') {
    throw new Error('appendInterventions: the transaction has already failed; roll it back before appending');
  }
  if (status !== 'I' && status !== null) return appendAllLocked(client, contents);
  await client.query('BEGIN');
  try {
    const results = await appendAllLocked(client, contents);
    await client.query('COMMIT');
    return results;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}

async function appendAllLocked(
  client: SqlSession,
  contents: readonly { readonly content: InterventionContent; readonly artifactJson: string }[],
): Promise<AppendResult[]> {
  const tenants = [...new Set(contents.map((c) => c.content.tenant))];
  await client.query(
    `SELECT count(pg_advisory_xact_lock($1, key))
       FROM (SELECT DISTINCT hashtext(tenant) AS key FROM unnest($2::text[]) AS t(tenant) ORDER BY key) AS ordered`,
    [INTERVENTION_CHAIN_LOCK_CLASS, tenants],
  );
  const stored = await client.query<InterventionQueryRow>(
    `SELECT ${INTERVENTION_COLUMNS} FROM interventions WHERE id = ANY($1::text[])`,
    [[...new Set(contents.map((c) => c.content.id))]],
  );
  const known = new Map<string, ChainedIntervention>(stored.rows.map((row) => [row.id, toChainedIntervention(row)]));
  const heads = await client.query<{ tenant: string; hash: string | null }>(
    `SELECT t.tenant, head.hash
       FROM unnest($1::text[]) AS t(tenant)
       LEFT JOIN LATERAL (SELECT hash FROM interventions i WHERE i.tenant = t.tenant ORDER BY seq DESC LIMIT 1) AS head ON true`,
    [tenants],
  );
  const headOf = new Map(heads.rows.map((r) => [r.tenant, r.hash]));

  // Chain the new rows in input order, exactly as appending them one after another would.
  const fresh: { content: InterventionContent; prevHash: string | null; hash: string }[] = [];
  const plan: ({ existing: ChainedIntervention } | { fresh: number; appended: boolean })[] = [];
  const freshById = new Map<string, number>();
  for (const { content, artifactJson } of contents) {
    const existing = known.get(content.id);
    if (existing) {
      plan.push({ existing: sameTenant(existing, content) });
      continue;
    }
    const repeated = freshById.get(content.id);
    if (repeated !== undefined) {
      sameTenant(fresh[repeated]!.content, content);
      plan.push({ fresh: repeated, appended: false }); // a repeat gets the first copy's row
      continue;
    }
    const prevHash = headOf.get(content.tenant) ?? null;
    const hash = chainHash(content, prevHash, artifactJson);
    headOf.set(content.tenant, hash);
    freshById.set(content.id, fresh.length);
    plan.push({ fresh: fresh.length, appended: true });
    fresh.push({ content, prevHash, hash });
  }

  const insertedById = new Map<string, ChainedIntervention>();
  if (fresh.length > 0) {
    // Only seq comes back: the rest of each row is what was just sent (toInterventionContent's form
    // round-trips unchanged), and echoing every artifact back cost the database and this process as much
    // again as the insert's JSON did.
    const inserted = await client.query<{ seq: string | number | bigint; id: string }>(
      `INSERT INTO interventions (id, tenant, run, agent, level, failure_class, key_id, tool_name, resource_class,
              auth_scope, principal, resource_id, next_action, artifact, policy_version, state_version,
              causing_event_ids, prev_hash, hash, issued_at)
       SELECT id, tenant, run, agent, level, failure_class, key_id, tool_name, resource_class, auth_scope, principal,
              resource_id, next_action, artifact, policy_version, state_version, causing_event_ids, prev_hash, hash,
              issued_at
         FROM ROWS FROM (jsonb_to_recordset($1::jsonb) AS (id text, tenant text, run text, agent text, level text,
              failure_class text, key_id text, tool_name text, resource_class text, auth_scope text, principal text,
              resource_id text, next_action text, artifact jsonb, policy_version text, state_version int,
              causing_event_ids text[], prev_hash text, hash text, issued_at timestamptz))
              WITH ORDINALITY AS r(id, tenant, run, agent, level, failure_class, key_id, tool_name, resource_class,
              auth_scope, principal, resource_id, next_action, artifact, policy_version, state_version,
              causing_event_ids, prev_hash, hash, issued_at, ord)
        ORDER BY ord
       ON CONFLICT (id) DO NOTHING
       RETURNING seq, id`,
      [JSON.stringify(fresh.map(({ content, prevHash, hash }) => columnsOf(content, prevHash, hash)))],
    );
    const seqOf = new Map(inserted.rows.map((row) => [row.id, Number(row.seq)]));
    for (const { content, prevHash, hash } of fresh) {
      const seq = seqOf.get(content.id);
      if (seq !== undefined) insertedById.set(content.id, { ...content, seq, prevHash, hash });
    }
    // Under the tenants' locks only another tenant can hold one of these ids; the rows chained after
    // it would then link to a hash that was never stored, so the whole batch must fail.
    const missing = fresh.find(({ content }) => !insertedById.has(content.id));
    if (missing) {
      throw new Error(
        `appendInterventions: intervention id ${missing.content.id} already belongs to another tenant; ids must be unique across tenants`,
      );
    }
  }

  return plan.map((step) => {
    if ('existing' in step) return { intervention: step.existing, appended: false };
    return { intervention: insertedById.get(fresh[step.fresh]!.content.id)!, appended: step.appended };
  });
}

function sameTenant<T extends { readonly tenant: string; readonly id: string }>(
  existing: T,
  content: InterventionContent,
): T {
  if (existing.tenant !== content.tenant) {
    throw new Error(
      `appendInterventions: intervention id ${content.id} already belongs to another tenant; ids must be unique across tenants`,
    );
  }
  return existing;
}

function columnsOf(content: InterventionContent, prevHash: string | null, hash: string) {
  return {
    id: content.id,
    tenant: content.tenant,
    run: content.run,
    agent: content.agent,
    level: content.level,
    failure_class: content.failureClass,
    key_id: content.keyId,
    tool_name: content.toolName,
    resource_class: content.resourceClass,
    auth_scope: content.authScope,
    principal: content.principal,
    resource_id: content.resourceId,
    next_action: content.nextAction,
    artifact: content.artifact,
    policy_version: content.policyVersion,
    state_version: content.stateVersion,
    causing_event_ids: content.causingEventIds,
    prev_hash: prevHash,
    hash,
    issued_at: content.issuedAt,
  };
}
