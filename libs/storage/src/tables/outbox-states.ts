import { sql } from 'drizzle-orm';
import { check, integer, json, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { FailureState } from '@tokencircuit/governance';

/**
 * States a pending decision_outbox row refers to (state_snapshot null), kept when failure_state moved past
 * them before the row was decided (migration 0039): the projector's save copies the version it replaces,
 * the relay deletes the copy when it publishes the row. Usually empty: a row is decided within milliseconds.
 */
export const outboxStates = pgTable(
  'outbox_states',
  {
    keyId: text('key_id').notNull(),
    stateVersion: integer('state_version').notNull(),
    tenant: text('tenant').notNull(),
    state: json('state').$type<FailureState>().notNull(),
    keptAt: timestamp('kept_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'outbox_states_pkey', columns: [t.keyId, t.stateVersion] }),
    check('outbox_states_tenant_not_empty', sql`${t.tenant} <> ''`),
  ],
);
