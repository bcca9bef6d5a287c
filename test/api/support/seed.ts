import type pg from 'pg';
import {
  agentEventToCloudEvent,
  parseAgentEvent,
  type AgentEvent,
  type AgentEventInput,
} from '@tokencircuit/contracts';
import { createGovernance, type FailureState, type TokenCircuitConfig } from '@tokencircuit/governance';
import { appendInterventions, interventionRowOf, type ChainedIntervention } from '@tokencircuit/storage';

/**
 * Writes what the projector and the decision service would have written for `inputs`, as the writer
 * (the test database's owner): agent_events rows, the core's folded failure_state rows, and one
 * hash-chained intervention per outbox entry that needs one. The rows come from the real core.
 */
export async function seedFromEvents(
  pool: pg.Pool,
  inputs: readonly AgentEventInput[],
  policy: TokenCircuitConfig,
): Promise<{ events: AgentEvent[]; states: FailureState[]; interventions: ChainedIntervention[] }> {
  const events = inputs.map((input) => parseAgentEvent(input));
  await insertEvents(pool, events);
  const governance = createGovernance(policy);
  const replay = governance.replay(events);
  const states = [...replay.states.values()];
  await insertStates(pool, states);
  const interventions: ChainedIntervention[] = [];
  const client = await pool.connect();
  try {
    for (const entry of replay.outbox) {
      const intervention = governance.intervention(entry, entry.snapshot.updatedAt);
      if (intervention)
        interventions.push((await appendInterventions(client, [interventionRowOf(intervention)]))[0]!.intervention);
    }
  } finally {
    client.release();
  }
  return { events, states, interventions };
}

export async function insertEvents(pool: pg.Pool, events: readonly AgentEvent[]): Promise<void> {
  for (const event of events) {
    const call = event.type === 'tool_call.requested' || event.type === 'tool_call.outcome' ? event.data.call : null;
    await pool.query(
      `INSERT INTO agent_events (id, tenant, run, agent, type, occurred_at, cloud_event) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [
        event.id,
        event.tenant,
        call?.run ?? null,
        call?.agent ?? null,
        event.type,
        event.time,
        agentEventToCloudEvent(event),
      ],
    );
  }
}

/** failure_state rows exactly as the projector stores them: flat columns plus the whole FailureState. */
export async function insertStates(pool: pg.Pool, states: readonly FailureState[]): Promise<void> {
  for (const s of states) {
    const k = s.key.equivalenceKey;
    await pool.query(
      `INSERT INTO failure_state (key_id, tenant, scope, run, principal, resource_id, tool_name, resource_class, auth_scope,
         error_class, side_effect_boundary, status, budget, retry_count, verifier_status, state, version, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
      [
        s.keyId,
        s.key.tenant,
        s.key.scope,
        s.key.run,
        s.key.principal,
        s.key.resourceId,
        k.tool_name,
        k.resource_class,
        k.auth_scope,
        k.error_class,
        k.side_effect_boundary,
        s.status,
        s.budget,
        s.retryCount,
        s.verifierStatus,
        JSON.stringify(s),
        s.version,
        s.updatedAt,
      ],
    );
  }
}
