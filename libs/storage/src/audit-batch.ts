import type { EpisodeEventData } from '@tokencircuit/contracts';
import { EPISODE_LOCK_CLASS, INTERVENTION_CHAIN_LOCK_CLASS } from './advisory-locks.js';
import { chainHash, type ChainedIntervention, type InterventionContent } from './hash-chain.js';
import { INTERVENTION_COLUMNS, toChainedIntervention, type InterventionQueryRow } from './intervention-row.js';
import { toHashableIntervention, type NewIntervention } from './new-intervention.js';
import { queryInOneMessage, type InlineStatement, type SqlSession } from './sql-database.js';
import { sqlTextArray } from './sql-literal.js';
import type { EpisodeEventRow } from './tables/episode-events.js';

export interface AppendResult {
  readonly intervention: ChainedIntervention;
  /** false when an intervention with this id already existed: republishing is idempotent. */
  readonly appended: boolean;
}

/** A key whose episode lifecycle the batch records steps for. */
export interface EpisodeKey {
  readonly tenant: string;
  readonly keyId: string;
}

export type RecordedEpisodeStep = EpisodeEventRow['data'];

/** The batch's locks are held and what it appends to is read: the caller decides the episode steps, then writes. */
export interface AuditBatch {
  /** Each named key's recorded steps of its latest episode, oldest first (keys without any are absent). */
  readonly episodeSteps: ReadonlyMap<string, readonly RecordedEpisodeStep[]>;
  /**
   * Appends the interventions to their tenants' chains and records the episode steps (a step already
   * recorded, same event id, is left as it is), in one statement. Results are in input order.
   */
  write(steps: readonly EpisodeEventData[]): Promise<AppendResult[]>;
}

/**
 * What a decision round appends to the audit trail, in two round trips whatever its size: the locks (the
 * tenants' chains, then the keys' episode lifecycles, each in one global order, so writers whose batches
 * meet queue instead of deadlocking), the reads under them (ids already stored, the chain heads, each key's
 * steps of its latest episode) — these two statements in one message —, and one INSERT of both kinds of row.
 * Each round trip costs most when the host is busy, which is when a round is late already.
 *
 * The rows, their order and their hashes are exactly those of appending the interventions one by one in the
 * given order (an id already stored, or repeated in the batch, is returned with appended: false). The reads
 * are a statement of their own, after the locks are granted: under READ COMMITTED a statement's snapshot is
 * taken when it starts, so a read in the locking statement could miss a head committed while it waited (the
 * statements of one message each take their own, one after another).
 *
 * Run it inside a transaction (the locks are transaction-scoped, and the writes must commit or roll back with
 * the caller's others); a session that is not in one is refused. Bad input is refused before any statement.
 */
export async function openAuditBatch(
  tx: SqlSession,
  interventions: readonly NewIntervention[],
  episodeKeys: readonly EpisodeKey[],
): Promise<AuditBatch> {
  return openValidatedAuditBatch(tx, interventions.map(toHashableIntervention), episodeKeys);
}

/** openAuditBatch for interventions already brought to their hashable form (appendInterventions validates first). */
export async function openValidatedAuditBatch(
  tx: SqlSession,
  contents: readonly { readonly content: InterventionContent; readonly artifactJson: string }[],
  episodeKeys: readonly EpisodeKey[],
): Promise<AuditBatch> {
  const status = (tx as { getTransactionStatus?: () => string | null }).getTransactionStatus?.();
  if (status === 'I') throw new Error('openAuditBatch: run it inside a transaction (its locks end with it)');
  if (status === 'E') throw new Error('openAuditBatch: the transaction has already failed; roll it back first');

  const tenants = [...new Set(contents.map((c) => c.content.tenant))];
  const keyIds = [...new Set(episodeKeys.map((k) => k.keyId))];
  // The locks and the reads travel in one message, as two statements: the second starts (and takes its
  // snapshot) only once the first has every lock.
  const statements: string[] = [];
  if (tenants.length + keyIds.length > 0) {
    statements.push(
      `SELECT count(pg_advisory_xact_lock(lock_class, key))
         FROM (SELECT DISTINCT ${INTERVENTION_CHAIN_LOCK_CLASS}::int AS lock_class, hashtext(tenant) AS key
                 FROM unnest(${sqlTextArray(tenants)}) AS t(tenant)
               UNION
               SELECT DISTINCT ${EPISODE_LOCK_CLASS}::int, hashtext(key_id) FROM unnest(${sqlTextArray(keyIds)}) AS k(key_id)
               ORDER BY lock_class, key) AS ordered`,
    );
  }
  const reads = readsUnderLocks(contents, tenants, episodeKeys);
  if (reads) statements.push(reads.text);
  const answers = await queryInOneMessage(tx, statements);
  const read = reads ? reads.read(answers[answers.length - 1]!) : nothingRead();
  const plan = chainInOrder(contents, read.stored, read.heads);
  return {
    episodeSteps: read.episodeSteps,
    write: async (steps) => {
      const inserted = await insertRecords(tx, plan.fresh, steps);
      return plan.results(inserted);
    },
  };
}

interface UnderLocks {
  readonly stored: Map<string, ChainedIntervention>;
  readonly heads: Map<string, string | null>;
  readonly episodeSteps: Map<string, RecordedEpisodeStep[]>;
}

const nothingRead = (): UnderLocks => ({ stored: new Map(), heads: new Map(), episodeSteps: new Map() });

/** One row of three JSON arrays: three reads in one statement (json_agg keeps each one's order). */
function readsUnderLocks(
  contents: readonly { readonly content: InterventionContent }[],
  tenants: readonly string[],
  episodeKeys: readonly EpisodeKey[],
): InlineStatement<UnderLocks> | null {
  if (contents.length === 0 && episodeKeys.length === 0) return null;
  // A round holds several versions of one key: its steps are read once.
  const pairs = [...new Map(episodeKeys.map((k) => [JSON.stringify([k.tenant, k.keyId]), k])).values()];
  const ids = [...new Set(contents.map((c) => c.content.id))];
  return {
    text: `SELECT
       (SELECT json_agg(i) FROM (SELECT ${INTERVENTION_COLUMNS} FROM interventions WHERE id = ANY(${sqlTextArray(ids)})) AS i) AS stored,
       (SELECT json_agg(json_build_array(t.tenant, head.hash))
          FROM unnest(${sqlTextArray(tenants)}) AS t(tenant)
          LEFT JOIN LATERAL (SELECT hash FROM interventions i WHERE i.tenant = t.tenant ORDER BY seq DESC LIMIT 1) AS head
            ON true) AS heads,
       (SELECT json_agg(json_build_array(e.key_id, e.data) ORDER BY e.seq)
          FROM unnest(${sqlTextArray(pairs.map((k) => k.tenant))}, ${sqlTextArray(pairs.map((k) => k.keyId))}) AS k(tenant, key_id)
          JOIN LATERAL (
            SELECT max(episode) AS episode FROM episode_events m WHERE m.tenant = k.tenant AND m.key_id = k.key_id
          ) AS latest ON true
          JOIN episode_events e ON e.tenant = k.tenant AND e.key_id = k.key_id AND e.episode = latest.episode) AS steps`,
    read: (rows) => {
      const row = rows[0] as
        | {
            stored: InterventionQueryRow[] | null;
            heads: [string, string | null][] | null;
            steps: [string, RecordedEpisodeStep][] | null;
          }
        | undefined;
      if (row === undefined) return nothingRead();
      const episodeSteps = new Map<string, RecordedEpisodeStep[]>();
      for (const [keyId, data] of row.steps ?? []) {
        const list = episodeSteps.get(keyId);
        if (list === undefined) episodeSteps.set(keyId, [data]);
        else list.push(data);
      }
      return {
        stored: new Map((row.stored ?? []).map((r) => [r.id, toChainedIntervention(r)])),
        heads: new Map(row.heads ?? []),
        episodeSteps,
      };
    },
  };
}

interface FreshRow {
  readonly content: InterventionContent;
  readonly prevHash: string | null;
  readonly hash: string;
}

/** The new rows chained in input order, exactly as appending them one after another would. */
function chainInOrder(
  contents: readonly { readonly content: InterventionContent; readonly artifactJson: string }[],
  known: ReadonlyMap<string, ChainedIntervention>,
  heads: Map<string, string | null>,
): { fresh: FreshRow[]; results: (seqOf: ReadonlyMap<string, number>) => AppendResult[] } {
  const fresh: FreshRow[] = [];
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
    const prevHash = heads.get(content.tenant) ?? null;
    const hash = chainHash(content, prevHash, artifactJson);
    heads.set(content.tenant, hash);
    freshById.set(content.id, fresh.length);
    plan.push({ fresh: fresh.length, appended: true });
    fresh.push({ content, prevHash, hash });
  }
  return {
    fresh,
    results: (seqOf) => {
      // Under the tenants' locks only another tenant can hold one of these ids; the rows chained after
      // it would then link to a hash that was never stored, so the whole batch must fail.
      const missing = fresh.find(({ content }) => !seqOf.has(content.id));
      if (missing) {
        throw new Error(
          `appendInterventions: intervention id ${missing.content.id} already belongs to another tenant; ids must be unique across tenants`,
        );
      }
      const chained = fresh.map(({ content, prevHash, hash }) => ({
        ...content,
        seq: seqOf.get(content.id)!,
        prevHash,
        hash,
      }));
      return plan.map((step) =>
        'existing' in step
          ? { intervention: step.existing, appended: false }
          : { intervention: chained[step.fresh]!, appended: step.appended },
      );
    },
  };
}

/**
 * One statement for both kinds of row. Only seq comes back: the rest of each row is what was just sent
 * (toInterventionContent's form round-trips unchanged), and echoing every artifact back cost the database
 * and this process as much again as the insert's JSON did.
 */
async function insertRecords(
  tx: SqlSession,
  fresh: readonly FreshRow[],
  steps: readonly EpisodeEventData[],
): Promise<Map<string, number>> {
  if (fresh.length === 0 && steps.length === 0) return new Map();
  const { rows } = await tx.query<{ seq: string | number | bigint; id: string }>(
    `WITH appended AS (
       INSERT INTO interventions (id, tenant, run, agent, level, failure_class, key_id, tool_name, resource_class,
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
       RETURNING seq, id),
     stepped AS (
       INSERT INTO episode_events (event_id, tenant, key_id, episode, episode_id, transition, level, state_version,
              data, occurred_at)
       SELECT e->>'eventId', e->>'tenant', e->>'keyId', (e->>'episode')::int, e->>'episodeId', e->>'transition',
              e->>'level', (e->>'stateVersion')::int, e, (e->>'occurredAt')::timestamptz
         FROM jsonb_array_elements($2::jsonb) AS e
       ON CONFLICT (event_id) DO NOTHING)
     SELECT seq, id FROM appended`,
    [
      JSON.stringify(fresh.map(({ content, prevHash, hash }) => columnsOf(content, prevHash, hash))),
      JSON.stringify(steps),
    ],
  );
  return new Map(rows.map((row) => [row.id, Number(row.seq)]));
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
