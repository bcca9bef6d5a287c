import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, json, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { FailureState, StateDelta } from '@tokencircuit/governance';

/**
 * State transitions waiting for a decision, written in the projector's transaction. The id is
 * derived from key_id + version, so a replayed batch inserts nothing new. An insert trigger
 * NOTIFYs 'decision_outbox' with the id (see the custom migration); polling with SKIP LOCKED over
 * the partial index is the fallback when a notification is missed.
 */
export const decisionOutbox = pgTable(
  'decision_outbox',
  {
    id: text('id').primaryKey(),
    tenant: text('tenant').notNull(),
    keyId: text('key_id').notNull(),
    stateVersion: integer('state_version').notNull(),
    // json, not jsonb: the relay reads the snapshot back whole and never queries inside it, so the
    // projector's hot path skips building a binary tree for every transition.
    // null: the row refers to its state instead of copying it — failure_state's row at (key_id,
    // state_version), or outbox_states once failure_state moved on (migration 0039, "decisions by reference").
    stateSnapshot: json('state_snapshot').$type<FailureState>(),
    /**
     * A transition before its key's latest in a projector transaction (migration 0047): its state as what it
     * changes against the state at base_version (applyStateDelta), instead of a copy.
     */
    baseVersion: integer('base_version'),
    stateDelta: json('state_delta').$type<StateDelta>(),
    /** On a latest transition's row: rows of versions from here up to its own carry a delta against its state. */
    dependentsFrom: integer('dependents_from'),
    /**
     * The key's transitions before this row's own in the same projector transaction (migration 0053): [version,
     * delta against this row's state] in version order. Each is decided as "<key id>@v<version>"; the row is
     * claimed, published and parked with them.
     */
    earlier: json('earlier').$type<readonly EarlierTransition[]>(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /**
     * The claim's order: a number from decision_outbox_claim_order_seq taken at insert (migration 0052), so the
     * pending index holds an 8-byte number per row instead of (created_at, the ≈ 95-character id).
     */
    claimOrder: bigint('claim_order', { mode: 'bigint' })
      .notNull()
      .default(sql`nextval('decision_outbox_claim_order_seq')`),
    publishedAt: timestamp('published_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** Set when the relay parks the row (its decision threw, or its records could not be recorded): never claimed again. */
    parkedAt: timestamp('parked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    // claim_order is the claim's ORDER BY, so the claim is an ordered index scan that stops at its LIMIT and
    // marks the entries of published rows dead as it passes them (a bitmap scan on created_at alone visited every
    // published-but-not-yet-vacuumed row's entry on every round). A number, not (created_at, id): 0052.
    index('decision_outbox_pending_idx')
      .on(t.claimOrder)
      .where(sql`${t.publishedAt} is null and ${t.parkedAt} is null`),
    // The retention purge's "published longest ago" (see OutboxRetention in libs/decision-relay).
    index('decision_outbox_published_idx')
      .on(t.publishedAt)
      .where(sql`${t.publishedAt} is not null`),
    index('decision_outbox_parked_idx')
      .on(t.parkedAt)
      .where(sql`${t.parkedAt} is not null`),
    check('decision_outbox_tenant_not_empty', sql`${t.tenant} <> ''`),
    check('decision_outbox_attempts_not_negative', sql`${t.attempts} >= 0`),
    check(
      'decision_outbox_earlier_on_reference',
      sql`${t.earlier} IS NULL OR (${t.stateSnapshot} IS NULL AND ${t.stateDelta} IS NULL AND json_typeof(${t.earlier}) = 'array')`,
    ),
    check(
      'decision_outbox_delta_has_base',
      sql`${t.stateDelta} IS NULL OR (${t.baseVersion} IS NOT NULL AND ${t.stateSnapshot} IS NULL)`,
    ),
  ],
);

/** One of a row's earlier transitions: its state version, and its state as a delta against the row's own. */
export type EarlierTransition = readonly [version: number, delta: StateDelta];

export type DecisionOutboxRow = typeof decisionOutbox.$inferSelect;
