import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  json,
  pgTable,
  primaryKey,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';

/**
 * Every accepted agent event, once. (tenant, CloudEvent id, CloudEvent source) is the primary key, so a
 * redelivered or republished event is an `ON CONFLICT DO NOTHING` no-op: the table is the projector's
 * dedupe set. Ids are unique within their source, as CloudEvents says (migration 0035): another tenant's
 * or another agent's event with the same id is a different event (0014, 0035); the same identity with
 * another body is a conflict (insert-agent-events.ts).
 */
export const agentEvents = pgTable(
  'agent_events',
  {
    id: text('id').notNull(),
    /** Insertion order: replaying the stored events in seq order reproduces the order the state saw them. */
    seq: bigserial('seq', { mode: 'number' }).notNull().unique('agent_events_seq_key'),
    tenant: text('tenant').notNull(),
    run: text('run'),
    agent: text('agent'),
    type: text('type').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull(),
    // json, not jsonb: stored as the text the projector wrote (validated, not rebuilt into a binary tree).
    // Written once per event on the projector's hot path and read back whole, the binary form cost a
    // third of the insert; `->`/`->>` still work for ad-hoc audit queries. Null since migration 0048 when the
    // row holds the text cut after its envelope (typeVersion, cloudEventTail): read the stored CloudEvent
    // through tokencircuit_cloud_event(agent_events), which returns the same text for either form.
    cloudEvent: json('cloud_event').$type<Record<string, unknown>>(),
    typeVersion: text('type_version'),
    cloudEventTail: text('cloud_event_tail'),
    // The Kafka coordinates are null for events that arrived over HTTP ingest or the embedded bus.
    kafkaTopic: text('kafka_topic'),
    kafkaPartition: integer('kafka_partition'),
    kafkaOffset: bigint('kafka_offset', { mode: 'bigint' }),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    /** The stored CloudEvent's source (migration 0035), written with the row: the key is (tenant, id, source). */
    source: text('source').notNull().default(''),
  },
  (t) => [
    primaryKey({ name: 'agent_events_pkey', columns: [t.tenant, t.id, t.source] }),
    index('agent_events_tenant_run_occurred_at_idx').on(t.tenant, t.run, t.occurredAt),
    // An empty tenant would match the row-level-security policy of a session with no tenant set.
    check('agent_events_tenant_not_empty', sql`${t.tenant} <> ''`),
    check(
      'agent_events_whole_or_cut',
      sql`(${t.cloudEvent} IS NULL) = (${t.cloudEventTail} IS NOT NULL) AND (${t.cloudEventTail} IS NULL) = (${t.typeVersion} IS NULL)`,
    ),
  ],
);

export type AgentEventRow = typeof agentEvents.$inferSelect;
export type NewAgentEventRow = typeof agentEvents.$inferInsert;
