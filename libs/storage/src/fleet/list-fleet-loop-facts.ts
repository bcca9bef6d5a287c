import type { DecisionLevel } from '@tokencircuit/contracts';
import type { RunLoopFact } from '@tokencircuit/governance';
import type { SqlSession } from '../sql-database.js';

interface LoopRow {
  readonly run: string | null;
  readonly tool: string;
  readonly level: DecisionLevel | null;
  readonly cycle: readonly string[] | null;
  readonly lastDigest: string | null;
  readonly at: Date | string;
}

// The run keys of the no_progress detectors (one per run and tool coordinates) whose track stands at a
// level, changed since $1: each is one run's loop. Under withTenant, row-level security adds the tenant
// and failure_state_tenant_updated_idx serves (tenant, updated_at >= $1).
const LOOP_FACTS_SQL = `
SELECT run, tool_name AS tool, state -> 'progress' ->> 'level' AS level,
       state -> 'progress' -> 'cycle' AS cycle,
       state -> 'progress' -> 'entries' -> (json_array_length(state -> 'progress' -> 'entries') - 1) ->> 'callDigest' AS "lastDigest",
       updated_at AS at
  FROM failure_state
 WHERE error_class = 'no_progress' AND scope = 'run' AND status <> 'resolved' AND updated_at >= $1::timestamptz`;

/** Every run's stored no_progress loop changed since `since` (the facts fleetLoops folds); under withTenant. */
export async function listFleetLoopFacts(session: SqlSession, since: Date): Promise<RunLoopFact[]> {
  const { rows } = await session.query<LoopRow>(LOOP_FACTS_SQL, [since.toISOString()]);
  const facts: RunLoopFact[] = [];
  for (const r of rows) {
    const callDigests = r.cycle ?? (r.lastDigest === null ? [] : [r.lastDigest]);
    if (r.run === null || r.level === null || callDigests.length === 0) continue;
    facts.push({
      run: r.run,
      tool: r.tool,
      callDigests,
      level: r.level,
      at: r.at instanceof Date ? r.at.toISOString() : new Date(r.at).toISOString(),
    });
  }
  return facts;
}
