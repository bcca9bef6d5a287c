import type { InterventionRow } from '../tables/interventions.js';
import type { InterventionRecord } from './intervention-record.js';

// seq is bigint (a string from node-postgres). A query that orders by it must name interventions.seq: a bare
// "seq" would sort by this text alias, putting 9 after 12.
/** The SELECT list of an InterventionRecord, aliased to the drizzle table's property names. */
export const INTERVENTION_RECORD_COLUMNS = `seq::text AS seq, id, tenant, run, agent, principal, level,
  failure_class AS "failureClass", next_action AS "nextAction", key_id AS "keyId", tool_name AS "toolName",
  resource_class AS "resourceClass", auth_scope AS "authScope", resource_id AS "resourceId",
  artifact->>'safety_justification' AS "safetyJustification", policy_version AS "policyVersion",
  state_version AS "stateVersion", causing_event_ids AS "causingEventIds", issued_at AS "issuedAt",
  prev_hash AS "prevHash", hash`;

/** A row of INTERVENTION_RECORD_COLUMNS: the table's columns but the artifact, as drivers return them. */
export interface InterventionRecordRow extends Omit<InterventionRow, 'seq' | 'issuedAt' | 'artifact'> {
  readonly seq: string | number;
  readonly issuedAt: Date | string;
  readonly safetyJustification: string | null;
}

export function toInterventionRecord(row: InterventionRecordRow): InterventionRecord {
  return {
    seq: Number(row.seq),
    id: row.id,
    tenant: row.tenant,
    run: row.run,
    agent: row.agent,
    principal: row.principal,
    level: row.level,
    failureClass: row.failureClass,
    nextAction: row.nextAction,
    keyId: row.keyId,
    toolName: row.toolName,
    resourceClass: row.resourceClass,
    authScope: row.authScope,
    resourceId: row.resourceId,
    safetyJustification: row.safetyJustification,
    policyVersion: row.policyVersion,
    stateVersion: row.stateVersion,
    causingEventIds: row.causingEventIds,
    issuedAt: new Date(row.issuedAt).toISOString(),
    prevHash: row.prevHash,
    hash: row.hash,
  };
}
