import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '@tokencircuit/contracts';
import {
  createGovernance,
  callMatcher,
  concerns,
  DEFAULT_CONFIG,
  isSelected,
  matches,
  MemoryStateStore,
  preflightSelection,
  type FailureState,
} from '@tokencircuit/governance';
import { apiDatabase, type ApiDatabase } from '@tokencircuit/api-http';
import { coordinatesOfRoutes } from '@tokencircuit/projection';
import {
  loadCandidateStates,
  pgDatabase,
  prepareFold,
  savePreparedFold,
  type SqlDatabase,
} from '@tokencircuit/storage';
import { createTestDatabase, type TestDatabase } from '@tokencircuit/testing';
import {
  candidateCall,
  candidateProbe,
  candidateStates,
} from '../../libs/governance/src/testing/candidate-arbitrary.js';

const governance = createGovernance(DEFAULT_CONFIG);

/**
 * The core decides which failure states an event may touch (candidateSelection; `matches` among
 * them). The projector's load and the preflight read select in SQL by coordinate prefixes: for any
 * rows and any event, what they return, after the core's own filter, must be exactly what the core
 * selects from all rows. A narrower SQL would lose a count (or a denial); a wider one only costs reads.
 */
describe('candidate selection: the SQL reads select what the core selects', () => {
  let db: TestDatabase;
  let sql: SqlDatabase;
  let api: ApiDatabase;
  const NOW = '2025-03-01T09:00:01.000Z';
  const ids = (states: Iterable<FailureState>): string[] => [...states].map((s) => s.keyId).sort();

  beforeAll(async () => {
    db = await createTestDatabase('tc_candidate_selection');
    sql = pgDatabase(db.pool);
    // What is under test is the read itself, rewritten between every pair of asks: no preflight cache (its own spec,
    // test/api/preflight-cache.int.spec.ts, proves it follows committed changes). The pool is the test database's.
    api = apiDatabase(db.pool, { ownsPool: false, candidateCacheEntries: 0 });
  });
  afterAll(async () => {
    await api?.close();
    await db?.drop();
  });

  const seed = (states: readonly FailureState[]) =>
    sql.transaction(async (tx) => {
      await tx.query('DELETE FROM failure_state');
      await savePreparedFold(
        tx,
        prepareFold({
          states,
          outbox: [],
          checkpoints: { group: 'candidates', topic: 'candidates', next: new Map() },
        }),
      );
    });

  const statesWithProbes = candidateStates(DEFAULT_CONFIG).chain((states) =>
    fc.tuple(fc.constant(states), fc.array(candidateProbe(states), { minLength: 1, maxLength: 6 })),
  );

  it('the projector: loaded rows, filtered by the fold, are the states each event concerns (one event or a whole batch)', async () => {
    await fc.assert(
      fc.asyncProperty(statesWithProbes, async ([states, events]) => {
        await seed(states);
        const routes = events.map((event: AgentEvent) => governance.route(event));
        await sql.transaction(async (tx) => {
          const batch = await loadCandidateStates(tx, coordinatesOfRoutes(routes));
          for (const routed of routes) {
            const alone = await loadCandidateStates(tx, coordinatesOfRoutes([routed]));
            const truth = ids(states.filter((s) => concerns(s, routed)));
            for (const loaded of [alone, batch]) {
              // As the pipeline folds: the loaded rows in a memory store, its candidates, the core's filter.
              const store = new MemoryStateStore();
              for (const state of loaded.states.values()) store.put(state);
              expect(ids(store.candidates(routed).filter((s) => concerns(s, routed)))).toEqual(truth);
              expect(ids([...loaded.states.values()].filter((s) => concerns(s, routed)))).toEqual(truth);
            }
          }
        });
      }),
      { numRuns: 40 },
    );
  });

  it("the preflight: the rows it reads, filtered by the core, are the core's selection, and its answer is the same", async () => {
    await fc.assert(
      fc.asyncProperty(
        candidateStates(DEFAULT_CONFIG),
        fc.array(candidateCall, { minLength: 1, maxLength: 6 }),
        async (states, calls) => {
          await seed(states);
          for (const { tenant, call } of calls) {
            const rows = await api.states.candidates(tenant, call);
            const matcher = callMatcher(tenant, call);
            const selection = preflightSelection(tenant, call);
            // The preflight read selects by the core's rule itself: exactly the selection, no more.
            expect(ids(rows)).toEqual(ids(states.filter((s) => isSelected(s, selection))));
            expect(ids(rows.filter((s) => matches(s.key, matcher)))).toEqual(
              ids(states.filter((s) => isSelected(s, selection) && matches(s.key, matcher))),
            );
            expect(governance.preflight(rows, tenant, call, NOW)).toEqual(
              governance.preflight(states, tenant, call, NOW),
            );
          }
        },
      ),
      { numRuns: 40 },
    );
  });
});
