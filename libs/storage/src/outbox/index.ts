// The decision outbox: written by the projector, claimed, published, parked and purged by the decision service.
export * from './claim-outbox-rows.js';
export * from './mark-outbox-published.js';
export * from './record-outbox-failure.js';
export * from './park-outbox-rows.js';
export * from './purge-published-outbox.js';
export * from './count-pending-outbox.js';
export * from './listen-outbox-inserts.js';
export { MAX_OUTBOX_ERROR_CHARS } from './outbox-error-text.js';
export * from './outbox-snapshot.js';
