import type { ChainedIntervention } from './hash-chain.js';

/** The SELECT list that intervention readers share, aliased to ChainedIntervention's names. */
export const INTERVENTION_COLUMNS = `seq, id, tenant, run, agent, level, failure_class AS "failureClass",
  key_id AS "keyId", tool_name AS "toolName", resource_class AS "resourceClass", auth_scope AS "authScope",
  principal, resource_id AS "resourceId", next_action AS "nextAction", artifact, policy_version AS "policyVersion",
  state_version AS "stateVersion", causing_event_ids AS "causingEventIds", prev_hash AS "prevHash", hash,
  issued_at AS "issuedAt"`;

export interface InterventionQueryRow extends Omit<ChainedIntervention, 'seq' | 'issuedAt'> {
  /** bigint: a string from node-postgres, a number or bigint from other drivers. */
  readonly seq: string | number | bigint;
  readonly issuedAt: Date | string;
}

/** Normalises driver-specific types (bigint, Date) to the plain values the hash chain is built on. */
export function toChainedIntervention(row: InterventionQueryRow): ChainedIntervention {
  return {
    ...row,
    seq: Number(row.seq),
    issuedAt: new Date(row.issuedAt).toISOString(),
  };
}
