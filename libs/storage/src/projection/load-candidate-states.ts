import type { FailureState, ProgressMemory } from '@tokencircuit/governance';
import { queryPreparedIfAble, type SqlSession } from '../sql-database.js';
import { stateKeyColumns, stateOfRow, type StateKeyColumns } from '../state/state-document.js';

/**
 * The coordinates a batch touches, as the core's candidateSelection names them: every failure_state row
 * that might match is loaded and locked.
 */
export interface StateCoordinates {
  /** Run-scoped keys of a run and tool. */
  readonly runTools: ReadonlyArray<readonly [tenant: string, run: string, tool: string]>;
  /** Fleet-scoped keys of a principal and resource id (null: the keys that name no resource). */
  readonly fleetResources: ReadonlyArray<readonly [tenant: string, principal: string, resourceId: string | null]>;
  readonly keyIds: readonly string[];
}

/** What a chunk folds over: the candidate states by key id, the run memories at the same run coordinates by id. */
export interface LoadedCandidates {
  readonly states: Map<string, FailureState>;
  readonly memories: Map<string, ProgressMemory>;
}

/**
 * Every failure_state row of these coordinates (a run's keys of one tool, a principal's fleet keys of
 * one resource, the named keys), by key id. Exactly the selection, not a coarser prefix: a small chunk would
 * otherwise read every fleet key of each principal it names. In the same statement, the run memories (migration
 * 0044) of the same runs and tools. Nothing is row-locked: the caller holds the advisory locks of these
 * coordinates (lockCoordinates; a named key's are those its id holds), which every writer of these rows takes,
 * so what this reads is what the last writer committed and nobody writes it before the caller commits.
 */
/** A memory row's places in the key columns of the union (a state row's fill them). */
const NO_KEY_COLUMNS = 'NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL::boolean';

export async function loadCandidateStates(
  tx: SqlSession,
  at: StateCoordinates,
  /**
   * States the caller holds, by key id (a cache of what it last read or committed): a selected key stored at the
   * same version comes back as the one given, without its document crossing the wire; any other version is read.
   * A key id and a version name one state (versions grow with every transition; only the projector writes them).
   */
  known: ReadonlyMap<string, FailureState> = NOTHING_KNOWN,
): Promise<LoadedCandidates> {
  // One index-driven branch per kind of coordinate: written as one WHERE with ORs, the planner could
  // only answer it with a sequential scan, so every chunk cost time in proportion to the whole table. A fleet
  // coordinate is two branches, with a resource id and without: `IS NOT DISTINCT FROM` is no index condition, and the
  // principal's every fleet key was read to keep those of one resource (migration 0054).
  // Prepared: planning this union took ≈ 0.4–0.6 ms of backend CPU on every call, as much as running it for a small
  // chunk; its generic plan (index probes per coordinate) is the one every chunk size wants.
  const { rows } = await queryPreparedIfAble<
    { id: string | null; body: FailureState | ProgressMemory | null; version: number | null } & StateKeyColumns
  >(
    tx,
    'load-candidate-states-v3',
    `WITH s AS (
       SELECT CASE WHEN k.version = st.version THEN NULL ELSE st.state END AS state, st.version, ${stateKeyColumns('st.')}
         FROM failure_state st
         LEFT JOIN unnest($8::text[], $9::int[]) AS k(key_id, version) ON k.key_id = st.key_id
        WHERE st.key_id IN (
         SELECT f.key_id FROM failure_state f
           JOIN unnest($1::text[], $2::text[], $3::text[]) AS r(tenant, run, tool)
             ON f.tenant = r.tenant AND f.run = r.run AND f.tool_name = r.tool
         UNION ALL
         SELECT f.key_id FROM failure_state f
           JOIN unnest($4::text[], $5::text[], $6::text[]) AS p(tenant, principal, resource_id)
             ON f.scope = 'fleet' AND f.tenant = p.tenant AND f.principal = p.principal
            AND f.resource_id = p.resource_id
         UNION ALL
         SELECT f.key_id FROM failure_state f
           JOIN unnest($4::text[], $5::text[], $6::text[]) AS p(tenant, principal, resource_id)
             ON f.scope = 'fleet' AND f.tenant = p.tenant AND f.principal = p.principal
            AND f.resource_id IS NULL AND p.resource_id IS NULL
         UNION ALL
         SELECT unnest($7::text[])))
     SELECT NULL::text AS id, state AS body, version, ${stateKeyColumns()} FROM s
     UNION ALL
     SELECT m.id, m.memory, NULL::int, ${NO_KEY_COLUMNS} FROM progress_memories m
       JOIN unnest($1::text[], $2::text[], $3::text[]) AS r(tenant, run, tool)
         ON m.tenant = r.tenant AND m.run = r.run AND m.tool_name = r.tool`,
    [
      at.runTools.map((r) => r[0]),
      at.runTools.map((r) => r[1]),
      at.runTools.map((r) => r[2]),
      at.fleetResources.map((p) => p[0]),
      at.fleetResources.map((p) => p[1]),
      at.fleetResources.map((p) => p[2]),
      at.keyIds,
      [...known.keys()],
      [...known.values()].map((state) => state.version),
    ],
  );
  const states = new Map<string, FailureState>();
  const memories = new Map<string, ProgressMemory>();
  for (const row of rows) {
    if (row.id !== null) memories.set(row.id, row.body as ProgressMemory);
    else if (row.body === null) {
      // Stored at the version the caller holds: its own copy stands in.
      const held = known.get(row.key_id);
      if (held === undefined || held.version !== row.version)
        throw new Error(`candidate load: no held state of key ${row.key_id} at version ${row.version}`);
      states.set(held.keyId, held);
    } else {
      const state = stateOfRow(row.body as FailureState, row);
      states.set(state.keyId, state);
    }
  }
  return { states, memories };
}

const NOTHING_KNOWN: ReadonlyMap<string, FailureState> = new Map();
