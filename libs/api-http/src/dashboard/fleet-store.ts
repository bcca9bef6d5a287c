import type { SqlSession } from '@tokencircuit/storage';
import { breakdownOf, type HeldKey } from './fleet-breakdown.js';
import type { FleetNow, HotKey, SeriesPoint } from './fleet-now.js';

export type { FleetNow, HotKey, SeriesPoint } from './fleet-now.js';
import type { FleetWindow } from './fleet-window.js';

/** At most this many held keys are listed (and counted in the breakdown); `heldTotal` says how many there are. */
export const MAX_HELD_KEYS = 500;

const iso = (value: Date | string): string => new Date(value).toISOString();

// Unresolved keys whose latest intervention blocks or pages. The latest intervention per key comes from
// interventions (tenant, key_id, seq) (migration 0026), one index probe per unresolved key.
const HELD_SQL = `
SELECT fs.key_id, fs.scope, fs.status, fs.run, fs.principal, fs.tool_name, fs.resource_class, fs.resource_id,
       fs.error_class, fs.retry_count, fs.budget, (fs.state->>'acknowledgedSituation') IS NOT NULL AS acknowledged,
       l.id AS intervention_id, l.level, l.next_action, l.issued_at, l.total::int AS interventions,
       count(*) OVER ()::int AS held_total
  FROM failure_state fs
  CROSS JOIN LATERAL (
    SELECT i.id, i.level, i.next_action, i.issued_at, count(*) OVER () AS total
      FROM interventions i
     WHERE i.tenant = fs.tenant AND i.key_id = fs.key_id
     ORDER BY i.seq DESC
     LIMIT 1
  ) l
 WHERE fs.status <> 'resolved' AND l.level IN ('block', 'page')
 ORDER BY (l.level = 'page') DESC, l.issued_at DESC, fs.key_id
 LIMIT $1`;

const SERIES_SQL = `
SELECT date_bin(make_interval(secs => $3), issued_at, $1::timestamptz) AS bucket, level, failure_class,
       count(*)::int AS count
  FROM interventions
 WHERE issued_at >= $1::timestamptz AND issued_at < $2::timestamptz
 GROUP BY 1, 2, 3
 ORDER BY 1, 2, 3`;

const HOTTEST_SQL = `
SELECT key_id, tool_name, principal, resource_class, resource_id, failure_class,
       (array_agg(level ORDER BY seq DESC))[1] AS level, count(*)::int AS interventions, max(issued_at) AS last_at
  FROM interventions
 WHERE issued_at >= $1::timestamptz AND issued_at < $2::timestamptz
 GROUP BY key_id, tool_name, principal, resource_class, resource_id, failure_class
 ORDER BY interventions DESC, last_at DESC, key_id
 LIMIT 10`;

interface HeldRow {
  key_id: string;
  scope: string;
  status: string;
  run: string | null;
  principal: string | null;
  tool_name: string;
  resource_class: string | null;
  resource_id: string | null;
  error_class: string;
  retry_count: number;
  budget: number;
  acknowledged: boolean;
  intervention_id: string;
  level: string;
  next_action: string;
  issued_at: Date | string;
  interventions: number;
  held_total: number;
}

/** The fleet view's reads; like the audit reads they run in a session under the tenant's row-level security. */
export const fleetStore = {
  async now(session: SqlSession, window: FleetWindow): Promise<FleetNow> {
    const held = await session.query<HeldRow>(HELD_SQL, [MAX_HELD_KEYS]);
    const series = await session.query<{ bucket: Date | string; level: string; failure_class: string; count: number }>(
      SERIES_SQL,
      [window.from.toISOString(), window.to.toISOString(), window.bucketSeconds],
    );
    const hottest = await session.query<{
      key_id: string;
      tool_name: string;
      principal: string | null;
      resource_class: string | null;
      resource_id: string | null;
      failure_class: string;
      level: string;
      interventions: number;
      last_at: Date | string;
    }>(HOTTEST_SQL, [window.from.toISOString(), window.to.toISOString()]);
    const keys: HeldKey[] = held.rows.map((r) => ({
      keyId: r.key_id,
      scope: r.scope,
      status: r.status,
      run: r.run,
      principal: r.principal,
      toolName: r.tool_name,
      resourceClass: r.resource_class,
      resourceId: r.resource_id,
      failureClass: r.error_class,
      retryCount: r.retry_count,
      budget: r.budget,
      acknowledged: r.acknowledged,
      level: r.level,
      nextAction: r.next_action,
      interventionId: r.intervention_id,
      issuedAt: iso(r.issued_at),
      interventions: r.interventions,
    }));
    return {
      window: {
        name: window.name,
        from: window.from.toISOString(),
        to: window.to.toISOString(),
        bucketSeconds: window.bucketSeconds,
      },
      held: keys,
      heldTotal: held.rows[0]?.held_total ?? 0,
      breakdown: breakdownOf(keys),
      series: series.rows.map((r) => ({
        bucket: iso(r.bucket),
        level: r.level,
        failureClass: r.failure_class,
        count: r.count,
      })),
      hottest: hottest.rows.map((r) => ({
        keyId: r.key_id,
        toolName: r.tool_name,
        principal: r.principal,
        resourceClass: r.resource_class,
        resourceId: r.resource_id,
        failureClass: r.failure_class,
        level: r.level,
        interventions: r.interventions,
        lastAt: iso(r.last_at),
      })),
    };
  },
};
