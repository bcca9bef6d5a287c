import { createHash } from 'node:crypto';
import { canonicalJson } from '@tokencircuit/governance';

/** The fields of an intervention the chain commits to: everything but seq, prev_hash and hash. */
export interface InterventionContent {
  readonly id: string;
  readonly tenant: string;
  readonly run: string | null;
  readonly agent: string | null;
  readonly level: string;
  readonly failureClass: string;
  readonly keyId: string;
  readonly toolName: string;
  readonly resourceClass: string | null;
  readonly authScope: string | null;
  readonly principal: string | null;
  readonly resourceId: string | null;
  readonly nextAction: string;
  readonly artifact: Readonly<Record<string, unknown>>;
  readonly policyVersion: string;
  readonly stateVersion: number;
  readonly causingEventIds: readonly string[];
  /** ISO-8601 in UTC with milliseconds, as Date.prototype.toISOString writes it (what the column round-trips). */
  readonly issuedAt: string;
}

/** An intervention as stored: its content plus its place in the tenant's chain. */
export interface ChainedIntervention extends InterventionContent {
  readonly seq: number;
  /** null for the tenant's first (genesis) row. */
  readonly prevHash: string | null;
  readonly hash: string;
}

/** Where a verification starts: genesis, or the last row already verified (for paging). */
export interface ChainAnchor {
  readonly seq: number;
  readonly hash: string | null;
}

export const GENESIS: ChainAnchor = { seq: 0, hash: null };

export type ChainVerification =
  | { readonly ok: true; readonly checked: number }
  | {
      readonly ok: false;
      /** Rows verified intact before the first broken one. */
      readonly checked: number;
      readonly firstBrokenSeq: number;
      readonly reason: string;
    };

/**
 * The exact text that is hashed: canonical JSON of the content fields under their column names,
 * plus prev_hash. Null fields are kept (as null) so "absent" and "null" cannot be confused, and
 * the SQL function tokencircuit_intervention_document() builds the same text inside Postgres.
 *
 * `artifactJson`: canonicalJson(row.artifact) when the caller already has it (appending computes it to
 * refuse an unhashable artifact before anything is written); the artifact is most of the document, and
 * writing it twice was a measurable share of the decision service's CPU.
 */
export function chainDocument(row: InterventionContent, prevHash: string | null, artifactJson?: string): string {
  // Every member but "agent" and "artifact", which sort before all of them.
  const rest = {
    id: row.id,
    tenant: row.tenant,
    run: row.run,
    level: row.level,
    failure_class: row.failureClass,
    key_id: row.keyId,
    tool_name: row.toolName,
    resource_class: row.resourceClass,
    auth_scope: row.authScope,
    principal: row.principal,
    resource_id: row.resourceId,
    next_action: row.nextAction,
    policy_version: row.policyVersion,
    state_version: row.stateVersion,
    causing_event_ids: row.causingEventIds,
    issued_at: row.issuedAt,
    prev_hash: prevHash,
  };
  if (artifactJson === undefined || row.agent === undefined || row.artifact === undefined) {
    return canonicalJson({ agent: row.agent, artifact: row.artifact, ...rest });
  }
  // Members sort by name ("agent", "artifact", then "auth_scope" onwards), so the document is those two
  // followed by the canonical JSON of the rest (never empty: prev_hash is always a member) without its brace.
  return `{"agent":${canonicalJson(row.agent)},"artifact":${artifactJson},${canonicalJson(rest).slice(1)}`;
}

/** sha256 (lower-case hex) of chainDocument(row, prevHash): the row's link in its tenant's chain. */
export function chainHash(row: InterventionContent, prevHash: string | null, artifactJson?: string): string {
  return createHash('sha256')
    .update(chainDocument(row, prevHash, artifactJson), 'utf8')
    .digest('hex');
}

/**
 * Checks that `rows` (one tenant, in seq order) form an unbroken chain from `from` (genesis by
 * default): every row links to its predecessor's hash and its hash matches its content. Catches
 * edited, removed, inserted and reordered rows; a truncated tail is only visible against an
 * externally kept head hash.
 */
export function verifyChain(rows: readonly ChainedIntervention[], from: ChainAnchor = GENESIS): ChainVerification {
  let previous = from;
  const tenant = rows[0]?.tenant;
  for (const [checked, row] of rows.entries()) {
    const broken = (reason: string): ChainVerification => ({ ok: false, checked, firstBrokenSeq: row.seq, reason });
    if (row.tenant !== tenant) return broken(`seq ${row.seq} belongs to tenant "${row.tenant}", not "${tenant}"`);
    if (row.seq <= previous.seq) return broken(`seq ${row.seq} does not follow seq ${previous.seq}`);
    if (row.prevHash !== previous.hash) {
      return broken(
        `seq ${row.seq} links to ${row.prevHash ?? 'genesis'} but the previous row's hash is ${previous.hash ?? 'genesis'}` +
          ' (a row was removed, inserted or reordered)',
      );
    }
    const expected = chainHash(row, row.prevHash);
    if (row.hash !== expected) {
      return broken(`seq ${row.seq} content does not match its hash (stored ${row.hash}, recomputed ${expected})`);
    }
    previous = row;
  }
  return { ok: true, checked: rows.length };
}
