import type pg from 'pg';

/** Where one intervention's latency went, read back from the rows its path wrote (Postgres wall clock, ms). */
export interface StageTimes {
  readonly interventionId: string;
  /** now() of the projector transaction that stored the causing event (and wrote the outbox row). */
  readonly projectedAt: number;
  /** now() of the decision round that claimed the outbox row, decided and published. */
  readonly decidedAt: number;
}

/**
 * Joins each intervention to its outbox row (key and state version) and to its causing event: the
 * timestamps split producer → projector → decision service → subscriber. now() is a transaction's
 * start, so each stage also holds the queueing before the next transaction begins.
 */
export async function stageTimes(pool: pg.Pool): Promise<Map<string, StageTimes>> {
  // From 0053 on a row carries its key's earlier transitions of a projector transaction: the view lists each one
  // with its row's published_at. The same benchmark also runs on a build before it, which has no view.
  const { rows: views } = await pool.query<{ view: string | null }>(
    "SELECT to_regclass('decision_outbox_transitions')::text AS view",
  );
  const transitions = views[0]?.view ? 'decision_outbox_transitions' : 'decision_outbox';
  const { rows } = await pool.query<{ id: string; projected_at: number; decided_at: number }>(
    `SELECT i.id,
            extract(epoch FROM e.received_at)::float8 * 1000 AS projected_at,
            extract(epoch FROM o.published_at)::float8 * 1000 AS decided_at
       FROM interventions i
       JOIN ${transitions} o ON o.key_id = i.key_id AND o.state_version = i.state_version
       JOIN agent_events e ON e.id = i.causing_event_ids[cardinality(i.causing_event_ids)]`,
  );
  return new Map(
    rows.map((r) => [r.id, { interventionId: r.id, projectedAt: r.projected_at, decidedAt: r.decided_at }]),
  );
}
