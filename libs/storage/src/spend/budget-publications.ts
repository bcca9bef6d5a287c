import type { EpisodeEventData, InterventionData } from '@tokencircuit/contracts';
import { INTERVENTION_COLUMNS, toChainedIntervention, type InterventionQueryRow } from '../intervention-row.js';
import type { SqlSession } from '../sql-database.js';

/** One appended budget intervention (and its episode step, when one was recorded) awaiting publication. */
export interface BudgetPublication {
  readonly interventionId: string;
  readonly tenant: string;
  readonly episodeEventId: string | null;
}

/**
 * Records the budget interventions a transaction appended as pending publications, in that transaction: the
 * decision service relays what nobody marked published (migration 0043). Recording one twice is a no-op.
 */
export async function insertBudgetPublications(
  session: SqlSession,
  publications: readonly BudgetPublication[],
): Promise<void> {
  if (publications.length === 0) return;
  await session.query(
    `INSERT INTO budget_publications (intervention_id, tenant, episode_event_id)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[])
     ON CONFLICT (intervention_id) DO NOTHING`,
    [
      publications.map((p) => p.interventionId),
      publications.map((p) => p.tenant),
      publications.map((p) => p.episodeEventId),
    ],
  );
}

/**
 * Claims up to `limit` pending publications recorded at least `graceMs` ago, oldest first, locked until the
 * caller's transaction ends (FOR UPDATE SKIP LOCKED: concurrent relays take different rows). The grace leaves
 * the API's fast path time to mark what it published itself.
 */
export async function claimPendingBudgetPublications(
  tx: SqlSession,
  limit: number,
  graceMs: number,
): Promise<BudgetPublication[]> {
  const { rows } = await tx.query<BudgetPublication>(
    `SELECT intervention_id AS "interventionId", tenant, episode_event_id AS "episodeEventId"
       FROM budget_publications
      WHERE published_at IS NULL AND created_at <= now() - make_interval(secs => $2::double precision / 1000)
      ORDER BY created_at, intervention_id
      LIMIT $1
      FOR UPDATE SKIP LOCKED`,
    [limit, graceMs],
  );
  return rows;
}

/**
 * The stored budget interventions and episode steps of these publications, as they were published: the
 * intervention rebuilt from its audit row (budget interventions carry no backoff), the step as recorded.
 */
export async function readBudgetPublications(
  session: SqlSession,
  publications: readonly BudgetPublication[],
): Promise<{ interventions: InterventionData[]; episodes: EpisodeEventData[] }> {
  if (publications.length === 0) return { interventions: [], episodes: [] };
  const ids = publications.map((p) => p.interventionId);
  const { rows } = await session.query<InterventionQueryRow>(
    `SELECT ${INTERVENTION_COLUMNS} FROM interventions WHERE id = ANY($1::text[]) ORDER BY tenant, seq`,
    [ids],
  );
  const interventions = rows.map(toChainedIntervention).map(
    (row): InterventionData =>
      ({
        interventionId: row.id,
        tenant: row.tenant,
        run: row.run,
        agent: row.agent,
        keyId: row.keyId,
        level: row.level,
        nextAction: row.nextAction,
        backoff: null,
        artifact: row.artifact,
        policyVersion: row.policyVersion,
        stateVersion: row.stateVersion,
        causingEventIds: [...row.causingEventIds],
        issuedAt: row.issuedAt,
      }) as InterventionData,
  );
  const stepIds = publications.flatMap((p) => (p.episodeEventId === null ? [] : [p.episodeEventId]));
  const episodes =
    stepIds.length === 0
      ? []
      : (
          await session.query<{ data: EpisodeEventData }>(
            `SELECT data FROM episode_events WHERE event_id = ANY($1::text[]) ORDER BY seq`,
            [stepIds],
          )
        ).rows.map((r) => r.data);
  return { interventions, episodes };
}

/** Marks these publications published (the relay's round, or the API's fast path after its own publish). */
export async function markBudgetPublished(session: SqlSession, interventionIds: readonly string[]): Promise<number> {
  if (interventionIds.length === 0) return 0;
  const { rows } = await session.query(
    `UPDATE budget_publications SET published_at = now()
      WHERE intervention_id = ANY($1::text[]) AND published_at IS NULL
      RETURNING intervention_id`,
    [interventionIds],
  );
  return rows.length;
}

/** Pending publications (a gauge for the decision service; a test's condition). */
export async function countPendingBudgetPublications(session: SqlSession): Promise<number> {
  const { rows } = await session.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM budget_publications WHERE published_at IS NULL`,
  );
  return Number(rows[0]?.n ?? 0);
}
