import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The ids of published outbox rows the retention purge deleted. The snapshot is gone, but the fact that the
 * transition was decided stays: replay verification compares every outbox id a rebuild produces with the
 * live ids, and counts these as live.
 */
export const decisionOutboxPurged = pgTable('decision_outbox_purged', {
  id: text('id').primaryKey(),
  tenant: text('tenant').notNull(),
  purgedAt: timestamp('purged_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
});
