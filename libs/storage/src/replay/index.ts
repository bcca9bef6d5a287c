// Replay and what-if: whole-table reads of one schema (the live one or a rebuilt one) and the schema handling
// a rebuild needs, on Postgres and PGlite alike (one statement per file, each with its integration spec).
export * from './quote-schema.js';
export * from './read-current-schema.js';
export * from './create-schema.js';
export * from './drop-schema.js';
export * from './set-search-path.js';
export * from './begin-read-snapshot.js';
export * from './end-read-snapshot.js';
export * from './disable-outbox-notify.js';
export * from './failure-state-row-json.js';
export * from './read-failure-state-page.js';
export * from './read-failure-state-rows.js';
export * from './read-decided-outbox-ids.js';
