import { sql } from 'drizzle-orm';
import { bigserial, check, index, integer, jsonb, pgTable, text, timestamp, unique } from 'drizzle-orm/pg-core';
import type { EpisodeEventData } from '@tokencircuit/contracts';

/**
 * Episode lifecycle steps, part of the audit trail: append-only (privileges and triggers in migration
 * 0023), one row per stable event id. Written by the decision relay in the claim's transaction.
 */
export const episodeEvents = pgTable(
  'episode_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    eventId: text('event_id').notNull(),
    tenant: text('tenant').notNull(),
    keyId: text('key_id').notNull(),
    episode: integer('episode').notNull(),
    episodeId: text('episode_id').notNull(),
    transition: text('transition').notNull(),
    level: text('level').notNull(),
    stateVersion: integer('state_version').notNull(),
    data: jsonb('data').$type<EpisodeEventData>().notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    recordedAt: timestamp('recorded_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    unique('episode_events_event_id_key').on(t.eventId),
    index('episode_events_tenant_key_episode_idx').on(t.tenant, t.keyId, t.episode, t.seq),
    index('episode_events_tenant_occurred_at_idx').on(t.tenant, t.occurredAt),
    check('episode_events_tenant_not_empty', sql`${t.tenant} <> ''`),
    check(
      'episode_events_transition_known',
      sql`${t.transition} IN ('triggered', 'escalated', 'acknowledged', 'resolved')`,
    ),
    check('episode_events_level_known', sql`${t.level} IN ('advise', 'block', 'page')`),
  ],
);

export type EpisodeEventRow = typeof episodeEvents.$inferSelect;
