import type { EpisodeEventData } from '@tokencircuit/contracts';
import type { SinkType } from '@tokencircuit/notifier';
import type { SqlSession } from '@tokencircuit/storage';

/** A delivery to record: one (episode step, sink). */
export interface NewDelivery {
  readonly id: string;
  readonly sink: string;
  readonly sinkType: SinkType;
  readonly step: EpisodeEventData;
}

/** A claimed delivery, as the dispatcher works on it. `attempts` already counts the attempt it is claimed for. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly sink: string;
  readonly sinkType: SinkType;
  readonly step: EpisodeEventData;
  readonly attempts: number;
}

/** Records deliveries; one already recorded (same id: a redelivered step) is left as it is. Returns how many are new. */
export async function recordDeliveries(tx: SqlSession, deliveries: readonly NewDelivery[]): Promise<NewDelivery[]> {
  if (deliveries.length === 0) return [];
  const { rows } = await tx.query<{ id: string }>(
    `INSERT INTO notifier_deliveries (id, tenant, sink, sink_type, event_id, episode_id, transition, level, step)
     SELECT d.v->>'id', d.v->'step'->>'tenant', d.v->>'sink', d.v->>'sinkType', d.v->'step'->>'eventId',
            d.v->'step'->>'episodeId', d.v->'step'->>'transition', d.v->'step'->>'level', d.v->'step'
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS d(v, ord)
      ORDER BY d.ord
     ON CONFLICT (id) DO NOTHING
     RETURNING id`,
    [JSON.stringify(deliveries)],
  );
  const inserted = new Set(rows.map((r) => r.id));
  return deliveries.filter((d) => inserted.has(d.id));
}

/** The sinks that already carry each episode (where its acknowledgement and resolution must go too). */
export async function sinksOfEpisodes(tx: SqlSession, episodeIds: readonly string[]): Promise<Map<string, string[]>> {
  const result = new Map<string, string[]>();
  if (episodeIds.length === 0) return result;
  const { rows } = await tx.query<{ episode_id: string; sink: string }>(
    `SELECT DISTINCT episode_id, sink FROM notifier_deliveries WHERE episode_id = ANY($1::text[])`,
    [[...new Set(episodeIds)]],
  );
  for (const row of rows) result.set(row.episode_id, [...(result.get(row.episode_id) ?? []), row.sink]);
  return result;
}

/**
 * Claims up to `limit` due deliveries of the given sinks for `leaseMs`, counting the attempt now (so a
 * delivery that kills its notifier still runs out of attempts). Only the head of each (sink, episode) queue
 * is due: PagerDuty must see the trigger before the resolve. A claim whose lease ran out (its notifier
 * died) is due again; SKIP LOCKED lets several notifiers claim side by side.
 */
export async function claimDeliveries(
  tx: SqlSession,
  sinks: readonly string[],
  limit: number,
  leaseMs: number,
): Promise<ClaimedDelivery[]> {
  if (sinks.length === 0 || limit <= 0) return [];
  const { rows } = await tx.query<{
    id: string;
    sink: string;
    sink_type: SinkType;
    step: EpisodeEventData;
    attempts: number;
  }>(
    `UPDATE notifier_deliveries d
        SET claimed_until = now() + $3 * interval '1 millisecond', attempts = d.attempts + 1
      WHERE d.id IN (
        SELECT c.id FROM notifier_deliveries c
         WHERE c.status = 'pending' AND c.next_attempt_at <= now()
           AND (c.claimed_until IS NULL OR c.claimed_until < now())
           AND c.sink = ANY($1::text[])
           AND NOT EXISTS (
             SELECT 1 FROM notifier_deliveries e
              WHERE e.sink = c.sink AND e.episode_id = c.episode_id AND e.status = 'pending' AND e.seq < c.seq)
         ORDER BY c.seq
         LIMIT $2
         FOR UPDATE SKIP LOCKED)
      RETURNING d.id, d.sink, d.sink_type, d.step, d.attempts, d.seq`,
    [sinks, limit, leaseMs],
  );
  return rows
    .sort((a, b) => Number((a as { seq?: string }).seq ?? 0) - Number((b as { seq?: string }).seq ?? 0))
    .map((r) => ({ id: r.id, sink: r.sink, sinkType: r.sink_type, step: r.step, attempts: r.attempts }));
}

/** Gives claims back untouched (not attempted: e.g. beyond a half-open breaker's one trial). */
export async function releaseClaims(db: SqlSession, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE notifier_deliveries SET claimed_until = NULL, attempts = attempts - 1
      WHERE id = ANY($1::text[]) AND status = 'pending'`,
    [ids],
  );
}

export async function markSent(db: SqlSession, id: string, status: number): Promise<void> {
  await db.query(
    `UPDATE notifier_deliveries SET status = 'sent', last_status = $2, last_error = NULL, claimed_until = NULL, finished_at = now()
      WHERE id = $1`,
    [id, status],
  );
}

export async function markSkipped(db: SqlSession, id: string): Promise<void> {
  await db.query(
    `UPDATE notifier_deliveries SET status = 'skipped', claimed_until = NULL, finished_at = now() WHERE id = $1`,
    [id],
  );
}

/** A retriable failure with attempts left: due again after `delayMs`. */
export async function markRetry(
  db: SqlSession,
  id: string,
  status: number | null,
  reason: string,
  delayMs: number,
): Promise<void> {
  await db.query(
    `UPDATE notifier_deliveries
        SET last_status = $2, last_error = $3, claimed_until = NULL, next_attempt_at = now() + $4 * interval '1 millisecond'
      WHERE id = $1`,
    [id, status, reason, delayMs],
  );
}

/** Never to be delivered: kept as 'dead' (the durable record) until the DLQ has it too. */
export async function markDead(
  db: SqlSession,
  id: string,
  cause: 'permanent' | 'exhausted',
  status: number | null,
  reason: string,
): Promise<void> {
  await db.query(
    `UPDATE notifier_deliveries
        SET status = 'dead', dead_cause = $2, last_status = $3, last_error = $4, claimed_until = NULL, finished_at = now()
      WHERE id = $1`,
    [id, cause, status, reason],
  );
}

/** A dead delivery not yet in the DLQ (marked dead, then the notifier died before publishing). */
export interface UnpublishedDeadLetter {
  readonly id: string;
  readonly sink: string;
  readonly sinkType: SinkType;
  readonly step: EpisodeEventData;
  readonly attempts: number;
  readonly lastStatus: number | null;
  readonly lastError: string;
  readonly cause: 'permanent' | 'exhausted';
  readonly deadAt: string;
}

export async function unpublishedDeadLetters(db: SqlSession, limit: number): Promise<UnpublishedDeadLetter[]> {
  const { rows } = await db.query<{
    id: string;
    sink: string;
    sink_type: SinkType;
    step: EpisodeEventData;
    attempts: number;
    last_status: number | null;
    last_error: string | null;
    dead_cause: 'permanent' | 'exhausted' | null;
    finished_at: Date | string;
  }>(
    `SELECT id, sink, sink_type, step, attempts, last_status, last_error, dead_cause, finished_at
       FROM notifier_deliveries WHERE status = 'dead' AND dlq_published_at IS NULL ORDER BY seq LIMIT $1
        FOR UPDATE SKIP LOCKED`,
    [limit],
  );
  return rows.map((r) => ({
    id: r.id,
    sink: r.sink,
    sinkType: r.sink_type,
    step: r.step,
    attempts: r.attempts,
    lastStatus: r.last_status,
    lastError: r.last_error ?? '',
    cause: r.dead_cause ?? 'exhausted',
    deadAt: new Date(r.finished_at).toISOString(),
  }));
}

export async function markDeadLettersPublished(db: SqlSession, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(`UPDATE notifier_deliveries SET dlq_published_at = now() WHERE id = ANY($1::text[])`, [ids]);
}

/** Pending deliveries per sink, and how old the oldest is (metrics). */
export async function pendingBySink(db: SqlSession): Promise<{ sink: string; depth: number; oldestSeconds: number }[]> {
  const { rows } = await db.query<{ sink: string; depth: string; oldest: string | number }>(
    `SELECT sink, count(*)::text AS depth, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0) AS oldest
       FROM notifier_deliveries WHERE status = 'pending' GROUP BY sink`,
  );
  return rows.map((r) => ({ sink: r.sink, depth: Number(r.depth), oldestSeconds: Number(r.oldest) }));
}
