import { z } from 'zod';
import {
  DecisionLevelSchema,
  InterventionClassSchema,
  NextActionSchema,
  type InterventionData,
} from '@tokencircuit/contracts';
import { canonicalJson } from '@tokencircuit/governance';
import type { InterventionContent } from './hash-chain.js';

const nonEmpty = z.string().min(1);

/** What appendInterventions accepts: the content of one audit row (the chain fields are computed). */
export const NewInterventionSchema = z.object({
  id: nonEmpty,
  tenant: nonEmpty,
  run: nonEmpty.nullable(),
  agent: nonEmpty.nullable(),
  level: DecisionLevelSchema,
  failureClass: InterventionClassSchema,
  keyId: nonEmpty,
  toolName: nonEmpty,
  resourceClass: z.string().nullable(),
  authScope: z.string().nullable(),
  principal: z.string().nullable(),
  resourceId: z.string().nullable(),
  nextAction: NextActionSchema,
  // The DiagnosticArtifact is the producer's contract; storage needs only a JSON object it can hash.
  artifact: z.record(z.string(), z.unknown()),
  policyVersion: nonEmpty,
  stateVersion: z.number().int().nonnegative().max(2_147_483_647),
  causingEventIds: z.array(nonEmpty),
  issuedAt: z.iso.datetime({ offset: true }),
});
export type NewIntervention = z.input<typeof NewInterventionSchema>;

/**
 * Validates an intervention and brings it to the form that round-trips through Postgres
 * unchanged, so the hash computed before the insert is the hash recomputed from the stored row:
 * issued_at is truncated to milliseconds in UTC (what timestamptz gives back to JavaScript).
 */
export function toInterventionContent(input: NewIntervention): InterventionContent {
  return toHashableIntervention(input).content;
}

/** toInterventionContent, with the artifact's canonical JSON it computed (for chainHash). */
export function toHashableIntervention(input: NewIntervention): {
  readonly content: InterventionContent;
  readonly artifactJson: string;
} {
  const parsed = NewInterventionSchema.safeParse(input);
  if (!parsed.success) {
    throw new TypeError(`Invalid intervention: ${z.prettifyError(parsed.error)}`, { cause: parsed.error });
  }
  const row = parsed.data;
  const artifactJson = canonicalJson(row.artifact); // throws a CanonicalJsonError naming the path of anything unhashable
  return { content: { ...row, issuedAt: new Date(row.issuedAt).toISOString() }, artifactJson };
}

/** The audit row of a published intervention: its key fields are copied out of the artifact so they can be indexed. */
export function interventionRowOf(data: InterventionData): NewIntervention {
  const { artifact } = data;
  return {
    id: data.interventionId,
    tenant: data.tenant,
    run: data.run,
    agent: data.agent,
    level: data.level,
    failureClass: artifact.failure_class,
    keyId: data.keyId,
    toolName: artifact.equivalence_key.tool_name,
    resourceClass: artifact.equivalence_key.resource_class,
    authScope: artifact.equivalence_key.auth_scope,
    principal: artifact.principal,
    resourceId: artifact.resource_id,
    nextAction: data.nextAction,
    artifact,
    policyVersion: data.policyVersion,
    stateVersion: data.stateVersion,
    causingEventIds: data.causingEventIds,
    issuedAt: data.issuedAt,
  };
}
