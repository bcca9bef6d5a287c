import { sql } from 'drizzle-orm';
import { bigint, check, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The projector's Kafka position, written in the same transaction as the read model it produced.
 * On restart the projector seeks to next_offset: Kafka's committed offset is a hint, this is the truth.
 */
export const projectorCheckpoints = pgTable(
  'projector_checkpoints',
  {
    consumerGroup: text('consumer_group').notNull(),
    topic: text('topic').notNull(),
    partition: integer('partition').notNull(),
    /** The offset of the next message to apply (last applied + 1), Kafka's own convention. */
    nextOffset: bigint('next_offset', { mode: 'bigint' }).notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'projector_checkpoints_pkey', columns: [t.consumerGroup, t.topic, t.partition] }),
    check('projector_checkpoints_position_not_negative', sql`${t.partition} >= 0 and ${t.nextOffset} >= 0`),
  ],
);

export type ProjectorCheckpointRow = typeof projectorCheckpoints.$inferSelect;
