// @tokencircuit/storage: the Postgres schema (drizzle), migrations and the audit-trail guarantees.
export * from './schema.js';
export * from './hash-chain.js';
export * from './new-intervention.js';
export * from './sql-database.js';
export * from './append-interventions.js';
export { openAuditBatch, type AuditBatch, type EpisodeKey, type RecordedEpisodeStep } from './audit-batch.js';
export * from './read-intervention-chain.js';
export * from './verify-tenant-chain.js';
export * from './with-tenant.js';
export { sqlLiteral, sqlTextArray, sqlIntArray } from './sql-literal.js';
export { writeAsTenant } from './write-as-tenant.js';
export * from './connection-errors.js';
export * from './failure-kind.js';
export * from './checkpoints/index.js';
export * from './ensure-database.js';
export { MIGRATIONS_FOLDER, type MigrateOptions } from './migrations-folder.js';
export { migrate } from './migrate.js';
export { migratePglite } from './migrate-pglite.js';
export * from './pglite-database.js';
export * from './episodes/index.js';
export * from './service-roles.js';
export * from './check-database.js';
export * from './database-start-error.js';
export { migrationLevel, readJournal, type JournalEntry, type MigrationLevel } from './migration-level.js';
export * from './anchors/index.js';
// The projector's write path (one statement per file, each with its integration spec).
export * from './projection/index.js';
// --- API reads: storage operations of the HTTP API (one per file, each with its integration spec) ---
export * from './state/select-candidate-states.js';
export * from './state/failure-state-changes.js';
export * from './state/blocking-statuses.js';
export * from './state/list-failure-states.js';
export * from './state/read-failure-state.js';
export * from './state/read-key-episode.js';
export * from './state/state-document.js';
export * from './audit/intervention-record.js';
export * from './audit/read-audit-page.js';
export * from './audit/read-intervention.js';
export * from './audit/read-chain-tip.js';
export * from './events/read-events-by-id.js';
export * from './events/read-tenant-events-by-id.js';
export * from './events/read-run-events.js';
export type { StoredEventFilter } from './events/stored-event-filter.js';
export * from './events/count-stored-events.js';
export * from './events/read-stored-event-page.js';
export * from './episodes/read-episode-steps.js';
export * from './fleet/time-window.js';
export * from './fleet/list-held-keys.js';
export * from './fleet/read-intervention-series.js';
export * from './fleet/list-hottest-keys.js';
// --- end API reads ---
// --- decision side: storage operations of the decision service and the notifier (one per file) ---
export * from './outbox/index.js';
export * from './with-savepoint.js';
export * from './ping-database.js';
export * from './spend/index.js';
export * from './notifier/index.js';
// --- end decision side ---
export * from './replay/index.js';
export * from './fleet/list-fleet-loop-facts.js';
